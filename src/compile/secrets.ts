import type { Redactor } from '../core/redactor.js';
import { urlPasswords } from '../core/urls.js';
import { isIdentifyingName } from '../core/identifying-names.js';
import type { NameValuesList, Plan, PlanCredentials, PlanOperation, RequestTemplate } from './plan.js';

/**
 * Which values of a Plan are secret, so that a Redactor can mask them in every text printed
 * (`explainPlan`, errors, logs). It errs towards masking: a value is public only when its name
 * says so (an `Accept` header, a `username` variable); cookies are always secret.
 */

/** Headers whose values describe the request, not who sends it. */
const PUBLIC_HEADERS = new Set([
  'accept', 'accept-encoding', 'accept-language', 'cache-control', 'content-type', 'origin', 'pragma',
  'referer', 'user-agent', 'x-amz-target', 'x-requested-with',
]);

/** Names whose values are secrets where most values are not (request bodies, procedure headers). */
const SENSITIVE_NAME =
  /pass|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|session|credential|cookie|otp|hash|signature|authorization|^(?:auth|key|pin|code|sid)$/i;

/** An HTTP authentication scheme before credentials (`Basic xyz`): the scheme itself is no secret. */
const AUTH_SCHEME = /^(?:Basic|Bearer|Digest|Token|ApiKey)\s+(\S.*)$/i;

/**
 * Every secret value a Plan holds: users' passwords, credential header, cookie and query values,
 * secret-looking body fields, variable values (except identifying ones such as `username`), the
 * same for refresh credentials and variables; in procedures, secret-looking headers, cookies, query
 * parameters (those written inline in a URL too) and body fields (those of requests parsed from curl
 * commands too), what browser steps
 * type into password fields; and `plan.secrets` (what presets derived: client secrets, Basic client
 * credentials, Cognito secret hashes, passwords and tokens written literally into curl commands),
 * mTLS passphrases, passkeys' private keys, and the password of every URL the plan holds (`http://user:password@proxy:3128`:
 * proxies, request URLs, browser steps). Templates (`{{name}}`) are never secrets.
 *
 * @example
 * const redactor = new Redactor().add(...planSecrets(plan));
 * redactor.redact(explainText);
 */
export function planSecrets(plan: Plan): string[] {
  const found: string[] = [...(plan.secrets ?? []), ...plan.mtls.flatMap((m) => (m.passphrase === undefined ? [] : [m.passphrase]))];
  for (const user of plan.users) {
    found.push(...credentialSecrets(user.credentials), ...variableSecrets(user.variables));
    if (user.passkey?.kind === 'seeded') found.push(user.passkey.privateKey);
    // A refresh without credentials or variables of its own shares the user's: found above.
    if (user.refresh && user.refresh.credentials !== user.credentials) found.push(...credentialSecrets(user.refresh.credentials));
    if (user.refresh && user.refresh.variables !== user.variables) found.push(...variableSecrets(user.refresh.variables));
  }
  for (const procedure of Object.values(plan.procedures)) {
    for (const operation of procedure.operations) found.push(...operationSecrets(operation));
  }
  found.push(...urlPasswordsIn(plan));
  return [...new Set(found.filter((value) => value.trim() !== '' && !value.includes('{{')))];
}

/**
 * Every name a plan uses to say who and what (user names, procedure names, preset types, variable
 * names: the users' own, extraction names, injected variables, `username` and `password`), for
 * `Redactor.keep`: an identifier is never masked, even when a secret equals it.
 *
 * @example
 * new Redactor().add(...planSecrets(plan)).keep(...planIdentifiers(plan));
 */
export function planIdentifiers(plan: Plan): string[] {
  const found = new Set<string>(['username', 'password']);
  for (const user of plan.users) {
    found.add(user.name);
    if (user.source.kind === 'preset') found.add(user.source.type);
    for (const name of Object.keys(user.variables)) found.add(name);
    for (const name of Object.keys(user.refresh?.variables ?? {})) found.add(name);
  }
  for (const procedure of Object.values(plan.procedures)) {
    found.add(procedure.name);
    for (const operation of procedure.operations) for (const extraction of operation.extractions) found.add(extraction.name);
    for (const injection of procedure.injections) if (injection.variable !== undefined) found.add(injection.variable);
  }
  return [...found];
}

/**
 * Tells `redactor` what of `plan` to mask ({@link planSecrets}) and what never to mask
 * ({@link planIdentifiers}): the one way a plan is registered for printing. A caller that registers
 * one plan with many redactors passes both lists, found once.
 *
 * @example
 * const text = registerPlan(new Redactor(), plan).redact(explainText);
 */
export function registerPlan(redactor: Redactor, plan: Plan, secrets: readonly string[] = planSecrets(plan), identifiers: readonly string[] = planIdentifiers(plan)): Redactor {
  return redactor.add(...secrets).keep(...identifiers);
}

/**
 * Every URL password in the plan's strings, wherever they are: a proxy (top-level or per
 * operation), a request URL, a browser step's target, a curl command. One walk over the plain data
 * rather than a list of places, so that a place added later is covered too.
 */
function urlPasswordsIn(plan: Plan): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [plan];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') found.push(...urlPasswords(value));
    else if (value !== null && typeof value === 'object' && !seen.has(value)) {
      seen.add(value);
      stack.push(...(Array.isArray(value) ? value : Object.values(value)));
    }
  }
  return found;
}

function credentialSecrets(credentials: PlanCredentials): string[] {
  return [
    ...(credentials.password === undefined ? [] : [credentials.password]),
    ...values(credentials.headers, (name) => !PUBLIC_HEADERS.has(name.toLowerCase()) && !isIdentifyingName(name)),
    ...values(credentials.cookies, () => true),
    ...values(credentials.query, (name) => !isIdentifyingName(name)),
    ...bodySecrets(credentials.body),
    // Storage items are what single-page apps keep their tokens in: every value is secret.
    ...(credentials.storage ? [...credentials.storage.localStorage, ...credentials.storage.sessionStorage].map((item) => item.value) : []),
  ];
}

function variableSecrets(variables: Record<string, string>): string[] {
  return Object.entries(variables).filter(([name]) => !isIdentifyingName(name)).map(([, value]) => value);
}

function requestSecrets(request: RequestTemplate): string[] {
  return [
    ...values(request.headers, (name) => SENSITIVE_NAME.test(name)),
    ...values(request.cookies, () => true),
    ...values(request.query, (name) => SENSITIVE_NAME.test(name)),
    ...urlQuerySecrets(request.url),
    ...bodySecrets(request.body),
  ];
}

/**
 * Secret-looking query values written inline in a request URL (`/token?client_secret=…`), as
 * written and decoded: the same rule as the request's `query` list. Read by hand, as the URL may
 * still hold templates that `new URL` would refuse.
 */
function urlQuerySecrets(url: string): string[] {
  const start = url.indexOf('?');
  if (start === -1) return [];
  const end = url.indexOf('#', start);
  const found: string[] = [];
  for (const pair of url.slice(start + 1, end === -1 ? undefined : end).split('&').slice(0, 1000)) {
    const eq = pair.indexOf('=');
    if (eq === -1 || !SENSITIVE_NAME.test(formDecoded(pair.slice(0, eq)))) continue;
    const value = pair.slice(eq + 1);
    found.push(value, formDecoded(value));
  }
  return found;
}

function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function operationSecrets(operation: PlanOperation): string[] {
  switch (operation.tech) {
    case 'http':
      return requestSecrets(operation.request);
    case 'digest':
      return requestSecrets(operation.first);
    case 'browser':
      return operation.project.tests.flatMap((test) =>
        test.commands
          .filter((c) => /^(?:type|sendkeys)$/i.test(c.command) && SENSITIVE_NAME.test(c.target) && c.value !== undefined)
          .map((c) => c.value as string),
      );
    case 'email':
      // A recipient is an identifier, not a secret; a mail's values are registered when read.
      return [];
  }
}

function values(list: NameValuesList[], secret: (name: string) => boolean): string[] {
  return list
    .filter((item) => secret(item.name))
    .flatMap((item) => item.values.flatMap((value) => (/^cookie$/i.test(item.name) ? cookieHeaderSecrets(value) : [withoutScheme(value)])));
}

/**
 * A `Cookie` header's value and each cookie's value in it (`sid=abc; theme=dark` -> the whole,
 * `abc`, `dark`): a command pasted from a browser's "Copy as cURL" writes cookies with `-b`, and its
 * text shows them pair by pair, not as the header the request sends.
 */
function cookieHeaderSecrets(header: string): string[] {
  const pairs = header.split(';').slice(0, 1000);
  return [header, ...pairs.map((pair) => pair.slice(pair.indexOf('=') + 1).trim()).filter((value) => value !== '')];
}

function withoutScheme(value: string): string {
  return AUTH_SCHEME.exec(value)?.[1] ?? value;
}

/** String leaves of a JSON body under secret-looking keys; for a form string, its secret-looking fields. */
function bodySecrets(body: unknown, key = ''): string[] {
  if (typeof body === 'string') {
    if (key !== '') return SENSITIVE_NAME.test(key) ? [body] : [];
    if (!/^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(body)) return [];
    return [...new URLSearchParams(body)].filter(([name]) => SENSITIVE_NAME.test(name)).map(([, value]) => value);
  }
  if (Array.isArray(body)) return body.flatMap((item) => bodySecrets(item, key));
  if (body !== null && typeof body === 'object') {
    return Object.entries(body).flatMap(([name, value]) => bodySecrets(value, name));
  }
  return [];
}

/**
 * Secrets written literally into a curl command: the password of `-u user:password`, the values of
 * `Authorization`/`Cookie`/API-key headers, and `password=`/`token=`-like fields of form and JSON
 * data. A heuristic on the text as written, which the curl presets add to `Plan.secrets`: the
 * request parsed from the command hides some of them (`-u` becomes a Base64 `Authorization`).
 *
 * @example
 * curlCommandSecrets("curl -u 'alice:pw-1' -d 'token=t-2' https://x.test"); // ['pw-1', 't-2']
 */
export function curlCommandSecrets(command: string): string[] {
  const found: string[] = [];
  for (const m of command.matchAll(/(?:^|\s)(?:-u|--user)(?:\s+|=)(['"]?)([^\s'"]+)\1/g)) {
    const credentials = m[2] as string;
    const colon = credentials.indexOf(':');
    if (colon >= 0) found.push(credentials.slice(colon + 1));
  }
  for (const m of command.matchAll(/(?:authorization|cookie|x-api-key|api-key)\s*:\s*([^'"\n]+)/gi)) found.push(withoutScheme((m[1] as string).trim()));
  for (const m of command.matchAll(/[\w.-]*(?:pass|secret|token)[\w.-]*=([^&'"\s]+)/gi)) found.push(m[1] as string);
  for (const m of command.matchAll(/\\?"[\w.-]*(?:pass|secret|token)[\w.-]*\\?"\s*:\s*\\?"((?:[^"\\]|\\.)*?)\\?"/gi)) found.push(m[1] as string);
  return found;
}
