import { z } from 'zod';
import { Credentials, Variables } from './common.js';
import { ValidationSetting } from './validation.js';
import { ReauthSetting } from './reauth.js';

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
  /** What a signed-out answer looks like for this user; `false`: none signs it in again (wins over the preset's and top level's). */
  reauth: ReauthSetting.optional(),
});
export type User = z.infer<typeof User>;
