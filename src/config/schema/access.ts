import { z } from 'zod';
import { Body, HttpMethod, StringMap } from './common.js';

/** Methods that change nothing on the server: the matrix sends others only when a request says `unsafe: true`. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * One request of the access matrix (issue 26): sent once as every user of `access.expect`, each
 * time with that user's session applied, as `authedRequest` sends it.
 */
export const AccessRequest = z.strictObject({
  name: z.string().min(1).max(200).describe('What the request tries, as the table and the test titles name it ("delete a comment"). Unique.'),
  method: HttpMethod.default('GET').describe('HTTP method; default GET. Any but GET, HEAD and OPTIONS needs `unsafe: true`.'),
  url: z.string().min(1).describe('Absolute URL. `${ENV}` as anywhere; `{{ users.NAME.VAR }}` reads a variable another user declares (an object it owns).'),
  headers: StringMap.optional().describe('Headers sent with the request, besides the session\'s: `{ Accept: application/json }`.'),
  body: Body.optional().describe('Body: a string, or JSON (an object or list, sent as application/json).'),
  unsafe: z.boolean().optional().describe('true: the request may change data (POST, PUT, PATCH, DELETE...); the matrix sends it after the safe ones, in declared order.'),
});
export type AccessRequest = z.infer<typeof AccessRequest>;

/** What a user may get from a request: `allow`, `deny`, or the exact status expected. */
export const AccessVerdict = z.union([z.enum(['allow', 'deny']), z.int().min(100).max(599)])
  .describe('allow (a 2xx, or a 3xx elsewhere than the login page), deny (a `deny` status, a redirect to the login page, the validation\'s not_match) or an exact HTTP status.');
export type AccessVerdict = z.infer<typeof AccessVerdict>;

/** One user's row of `access.expect`: one verdict for every request, or one per request name (`"*"`: the others). */
export const AccessExpectation = z.union([AccessVerdict, z.record(z.string().min(1), AccessVerdict)])
  .describe('One verdict for every request, or a map from request name (or "*", every request not named) to a verdict.');
export type AccessExpectation = z.infer<typeof AccessExpectation>;

/**
 * The access matrix (issue 26): every request of `requests` is sent as every user of `expect`
 * (and `anonymous`, without a session), and each answer is compared with what `expect` says.
 */
export const AccessMatrix = z.strictObject({
  requests: z.array(AccessRequest).min(1).max(10_000).describe('What to try, in order; safe requests run first, then the unsafe ones in declared order.'),
  expect: z.record(z.string().min(1), AccessExpectation)
    .describe('User name (or `anonymous`: no session) -> what that user may get. Users not listed are not run.'),
  deny: z.array(z.int().min(100).max(599)).min(1).max(100).optional().describe('Statuses that count as deny; default [401, 403].'),
}).describe('The access matrix: who may do what (docs/access.md). Run by `multiauth matrix` and by `accessMatrix()` in a spec.');
export type AccessMatrix = z.infer<typeof AccessMatrix>;
