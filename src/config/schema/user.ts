import { z } from 'zod';
import { Credentials, Variables } from './common.js';
import { VALIDATION_HERE, ValidationSetting } from './validation.js';
import { REAUTH_HERE, ReauthSetting } from './reauth.js';
import { PASSKEY_HERE, PasskeySetting } from './passkey.js';

/** UserRefresh: how and when a user's session is renewed. */
export const UserRefresh = z.strictObject({
  procedure: z.string().min(1).optional().describe('The procedure that refreshes the session; default the user\'s own.'),
  sessionSeconds: z.int().positive().optional().describe('Seconds the session lasts; wins over expires_in, a JWT exp and lifetime.'),
  keep: z.boolean().describe('true: the new session is laid over the old one (keeps what it does not renew); false: replaces it.'),
  credentials: Credentials.optional().describe('Credentials of the refresh\'s requests only; default the user\'s.'),
  variables: Variables.optional().describe('Template values of the refresh: a list of {name, value} or a map; default the user\'s.'),
});
export type UserRefresh = z.infer<typeof UserRefresh>;

/** User: a generic user, authenticated by a named procedure (or by its credentials alone). */
export const User = z.strictObject({
  name: z.string().min(1).describe('The user\'s name, as specs say it (authUser: alice); unique across users and presets.'),
  credentials: Credentials.optional().describe('Values sent for the user: username, password, headers, cookies, query parameters, body, browser storage.'),
  // `null` is how the Python original writes "none".
  procedure: z.string().min(1).nullish().describe('Name of the procedure (of `procedures`) that signs the user in; absent or null: the credentials are the session.'),
  variables: Variables.optional().describe('Template values of the user\'s sign-in ({{name}}): a list of {name, value} or a map.'),
  refresh: UserRefresh.optional().describe('How the session is renewed: keep, procedure, sessionSeconds; absent: signed in again.'),
  repeater_mtls: z.boolean().optional().describe('true: present the top-level mtls client certificates; default false.'),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  passkey: PasskeySetting.optional().describe(PASSKEY_HERE),
});
export type User = z.infer<typeof User>;
