import { z } from 'zod';
import { HttpMethod } from './common.js';

/**
 * How to know that a session works (issue 14; Escape's format calls it `validation` too): a request
 * sent with the user's session applied, as `authedRequest` sends it, and what its answer must be.
 */
export const Validation = z.strictObject({
  /** Absolute URL of a page or API that only a signed-in user gets (`${BASE_URL}/api/me`). */
  url: z.string().min(1),
  method: HttpMethod.optional(),
  /** Accepted statuses; default any 2xx. */
  status: z.union([z.int().min(100).max(599), z.array(z.int().min(100).max(599)).min(1)]).optional(),
  /** A regex the body must match. */
  match: z.string().min(1).optional(),
  /** A regex the body must not match (`Sign in|anonymous`). */
  not_match: z.string().min(1).optional(),
});
export type Validation = z.infer<typeof Validation>;

/**
 * `validation` where it may be written: a check, `false` (none for these users), or `true` (the
 * top-level check; accepted for configs written for Escape's format). The nearest one wins: a
 * user's, then its preset's, then the top level's.
 */
export const ValidationSetting = z.union([z.boolean(), Validation]);
export type ValidationSetting = z.infer<typeof ValidationSetting>;
