import { accessTemplateBlocks } from '../core/access-template.js';
import { SAFE_METHODS, type AccessMatrix, type AccessVerdict, type Validation } from '../config/schema/index.js';
import type { NameValuesList, PlanAccess, PlanAccessRequest, PlanUser } from './plan.js';

/** Statuses that count as deny when `access.deny` is not given. */
export const DEFAULT_DENY_STATUSES: readonly number[] = [401, 403];

/**
 * The config's `access` as the matrix runs it: `{{ users.NAME.VAR }}` replaced by that user's
 * declared value (the config's checks proved every one exists), safe requests before unsafe ones,
 * every user's expectation spelt out per request (`"*"` and a single word expanded), and what
 * tells `anonymous` was answered as someone signed out (the top-level `validation`'s `not_match`,
 * every user's `reauth.on_body`).
 *
 * @example
 * compileAccess(config.access, plan.users).expect.editor['delete a comment']; // 'deny'
 */
export function compileAccess(access: AccessMatrix, users: readonly PlanUser[], validation?: Validation): PlanAccess {
  const variables = new Map(users.map((user) => [user.name, user.variables]));
  const requests = access.requests.map((request, index): PlanAccessRequest => {
    const filled = fillReferences(request, variables);
    return {
      name: request.name,
      method: request.method,
      url: filled.url,
      headers: Object.entries(filled.headers ?? {}).map(([name, value]): NameValuesList => ({ name, values: [value] })),
      ...(filled.body === undefined ? {} : { body: filled.body }),
      unsafe: !SAFE_METHODS.has(request.method),
      origin: ['access', 'requests', index],
    };
  });
  const ordered = [...requests.filter((r) => !r.unsafe), ...requests.filter((r) => r.unsafe)];
  const expect: PlanAccess['expect'] = Object.create(null) as PlanAccess['expect'];
  for (const [user, expectation] of Object.entries(access.expect)) {
    const row: Record<string, AccessVerdict> = Object.create(null) as Record<string, AccessVerdict>;
    for (const request of ordered) {
      row[request.name] = typeof expectation === 'object'
        ? (Object.hasOwn(expectation, request.name) ? expectation[request.name] : expectation['*']) ?? 'deny'
        : expectation;
    }
    expect[user] = row;
  }
  // Someone signed out sees what a signed-in user sees after its session ended (issue 35).
  const onBody = [...new Set(users.flatMap((user) => (user.reauth ? user.reauth.onBody ?? [] : [])))];
  const anonymous = { ...(validation?.not_match === undefined ? {} : { notMatch: validation.not_match }), onBody };
  return { requests: ordered, users: Object.keys(access.expect), expect, deny: [...(access.deny ?? DEFAULT_DENY_STATUSES)], anonymous, origin: ['access'] };
}

type Filled = Pick<AccessMatrix['requests'][number], 'url' | 'headers' | 'body'>;

/** The request with every `{{ users.NAME.VAR }}` of its URL, header values and body strings replaced. */
function fillReferences(request: Filled, variables: Map<string, Record<string, string>>): Filled {
  const fill = (text: string): string => {
    let out = text;
    for (const block of accessTemplateBlocks(text)) {
      if (block.kind !== 'reference') continue;
      const declared = variables.get(block.user);
      if (declared && Object.hasOwn(declared, block.variable)) out = out.split(block.raw).join(declared[block.variable] as string);
    }
    return out;
  };
  const body = request.body === undefined ? undefined : fillDeep(request.body, fill, 0);
  const headers = request.headers ? Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, fill(value)])) : undefined;
  return { url: fill(request.url), ...(headers ? { headers } : {}), ...(body === undefined ? {} : { body }) };
}

function fillDeep(value: unknown, fill: (text: string) => string, depth: number): unknown {
  if (depth > 32) return value;
  if (typeof value === 'string') return fill(value);
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, fill, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty: a body key "__proto__" stays a key, never a prototype.
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: fillDeep(item, fill, depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}
