import { z } from 'zod';
import { Body, HttpMethod, StringMap } from './common.js';

/**
 * How to know that a session works (issue 14; Escape's format calls it `validation` too): a request
 * sent with the user's session applied, as `authedRequest` sends it, and what its answer must be.
 */
export const Validation = z.strictObject({
  url: z.string().min(1).describe('Absolute URL of a page or API that only a signed-in user gets (${BASE_URL}/api/me).'),
  method: HttpMethod.optional().describe('The HTTP method of the check; default GET (a JSON-RPC check is a POST).'),
  headers: StringMap.optional().describe('Headers sent with the check, besides the session\'s: `{ Content-Type: application/json-rpc }`.'),
  body: Body.optional().describe('Body of the check: a string, or JSON (an object or list, sent as application/json); the session\'s body rules apply to it.'),
  status: z.union([z.int().min(100).max(599), z.array(z.int().min(100).max(599)).min(1)]).optional()
    .describe('The accepted status, or a list of them (100-599); default any 2xx.'),
  match: z.string().min(1).optional().describe('A regex the body must match (Signed in as).'),
  not_match: z.string().min(1).optional().describe('A regex the body must not match (Sign in|anonymous).'),
});
export type Validation = z.infer<typeof Validation>;

/**
 * `validation` where it may be written: a check, `false` (none for these users), or `true` (the
 * top-level check; accepted for configs written for Escape's format). The nearest one wins: a
 * user's, then its preset's, then the top level's.
 */
export const ValidationSetting = z.union([z.boolean(), Validation]);

/** The description of `validation` below the top level (presets and users). */
export const VALIDATION_HERE = 'How to know these users\' sessions work: a check {url, method, headers, body, status, match, not_match}, true (the top level\'s) or false (none); default the nearest one above.';
export type ValidationSetting = z.infer<typeof ValidationSetting>;
