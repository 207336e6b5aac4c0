import { z } from 'zod';
import { Credentials, Variables } from './common.js';
import { ValidationSetting } from './validation.js';

/** UserRefresh: how and when a user's session is renewed. */
export const UserRefresh = z.strictObject({
  procedure: z.string().min(1).optional(),
  sessionSeconds: z.int().positive().optional(),
  keep: z.boolean(),
  credentials: Credentials.optional(),
  variables: Variables.optional(),
});
export type UserRefresh = z.infer<typeof UserRefresh>;

/** User: a generic user, authenticated by a named procedure (or by its credentials alone). */
export const User = z.strictObject({
  name: z.string().min(1),
  credentials: Credentials.optional(),
  /** `null` (as the Python original writes it) means none. */
  procedure: z.string().min(1).nullish(),
  variables: Variables.optional(),
  refresh: UserRefresh.optional(),
  repeater_mtls: z.boolean().optional(),
  /** How to know this user's session works; see `Validation`. */
  validation: ValidationSetting.optional(),
  /** `false`: a 401 does not sign this user in again (the top-level `reauth` for everyone). */
  reauth: z.boolean().optional(),
});
export type User = z.infer<typeof User>;
