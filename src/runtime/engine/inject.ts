import { MultiAuthError } from '../../core/errors.js';
import type { PlanInjection } from '../../compile/index.js';
import type { SignInResult } from '../session/session.js';
import type { TemplateScope, TemplateWhere } from '../template/template.js';

/**
 * Writes one injection into a session (mutates it), so that every later authenticated request of
 * the user carries it (DESIGN.md "Injections"):
 * - `header`: `prefix + value`, where a prefix ending in a letter gets one space (`Bearer` ->
 *   `Bearer x`; `Bearer ` and `Token=` are used as written). Replaces every header of the same name,
 *   ignoring case.
 * - `cookie`: a cookie `key` = `prefix + value`, as is (no encoding: it is sent as written);
 *   replaces a cookie of the same name.
 * - `query`: parameter `key` = `prefix + value` (encoded once when the URL is built); replaces one of
 *   the same name.
 * - `body`: `session.body.set[key] = prefix + value` (`key` is a dot path), written into JSON and form
 *   bodies by {@link applySession}.
 * - `browser_local_storage`, `browser_session_storage`: item `key` = `prefix + value` of the
 *   storage of `origin`, in every signed-in page (HTTP requests do not carry it).
 *
 * @example
 * inject(session, { location: 'header', key: 'Authorization', prefix: 'Bearer', origin: [] }, 'abc');
 * session.headers; // { Authorization: ['Bearer abc'] }
 */
export function inject(session: SignInResult, injection: PlanInjection, value: string): void {
  const { key } = injection;
  const prefix = injection.prefix ?? '';
  switch (injection.location) {
    case 'header': {
      const spaced = /\p{L}$/u.test(prefix) ? `${prefix} ` : prefix;
      for (const name of Object.keys(session.headers)) {
        if (name.toLowerCase() === key.toLowerCase()) delete session.headers[name];
      }
      session.headers[key] = [spaced + value];
      return;
    }
    case 'cookie':
      session.cookies = session.cookies.filter((c) => c.name !== key);
      session.cookies.push({ name: key, value: prefix + value });
      return;
    case 'query':
      session.query[key] = [prefix + value];
      return;
    case 'body':
      session.body.set[key] = prefix + value;
      return;
    case 'browser_local_storage':
    case 'browser_session_storage':
      setStorageItem(session, injection, prefix + value);
      return;
  }
}

/**
 * An item of the origin's localStorage or sessionStorage in the session: every signed-in page of
 * that origin starts with it. Replaces an item of the same name (one a browser step captured too).
 */
function setStorageItem(session: SignInResult, injection: PlanInjection, value: string): void {
  // The config check requires the origin of a storage injection; compile normalised it.
  const origin = injection.storageOrigin as string;
  let entry = session.origins.find((o) => o.origin === origin);
  if (!entry) session.origins.push((entry = { origin, localStorage: [] }));
  const area = injection.location === 'browser_local_storage' ? 'localStorage' : 'sessionStorage';
  const items = (entry[area] ?? []).filter((item) => item.name !== injection.key);
  items.push({ name: injection.key, value });
  entry[area] = items;
}

/**
 * The value an injection writes: the variable it names, or, when it names none, the first
 * successful extraction of the procedure (spec: TokenInjection.variable).
 *
 * @throws MultiAuthError `INJECTION_VARIABLE_UNSET` when the named variable was never set, or when
 *   no variable is named and nothing was extracted; the error lists the names that are set.
 * @example
 * resolveInjectionValue({ location: 'header', key: 'Authorization', variable: 'token', origin: [] },
 *   { token: 'abc' }, undefined, { user: 'alice' }); // 'abc'
 */
export function resolveInjectionValue(
  injection: PlanInjection,
  scope: TemplateScope,
  firstExtracted: string | undefined,
  where: TemplateWhere,
): string {
  const { variable } = injection;
  if (variable !== undefined && Object.hasOwn(scope, variable)) return scope[variable] as string;
  if (variable === undefined && firstExtracted !== undefined) return firstExtracted;
  const names = Object.keys(scope);
  const message =
    variable === undefined
      ? `injection into ${injection.location} "${injection.key}" names no variable and no extraction succeeded`
      : `injection into ${injection.location} "${injection.key}" uses variable "${variable}", which was never set`;
  throw new MultiAuthError('INJECTION_VARIABLE_UNSET', message, {
    path: injection.origin,
    context: { user: where.user, procedure: where.procedure, step: where.step },
    details: [`variables set: ${names.length ? names.join(', ') : '(none)'}`],
    hint:
      variable === undefined
        ? 'Add an extraction to the procedure, or name the variable to inject with `variable:`.'
        : `Extract "${variable}" in an operation of the procedure (extractions: [{ name: ${variable}, ... }]) or fix the spelling.`,
  });
}
