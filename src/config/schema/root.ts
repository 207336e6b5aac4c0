import { z } from 'zod';
import { Preset } from './presets.js';
import { Procedure } from './procedure.js';
import { User } from './user.js';
import { Validation } from './validation.js';
import { ReauthSetting } from './reauth.js';
import { AccessMatrix } from './access.js';
import { MailSetting } from './mail.js';

/**
 * An mTLS client certificate, in Playwright's `clientCertificates` shape (extension of the format).
 * Used by users with `repeater_mtls: true`.
 */
export const MtlsCertificate = z.strictObject({
  origin: z.string().min(1).describe('The origin the certificate is presented to (https://api.example.test).'),
  certPath: z.string().optional().describe('PEM certificate file, relative to the config file (with keyPath).'),
  keyPath: z.string().optional().describe('PEM private key file, relative to the config file (with certPath).'),
  pfxPath: z.string().optional().describe('A PKCS#12 file holding certificate and key, instead of certPath and keyPath.'),
  passphrase: z.string().optional().describe('Passphrase of the key or of the PFX file ("${NAME}" from .env).'),
});
export type MtlsCertificate = z.infer<typeof MtlsCertificate>;

/**
 * The whole `multiauth.yaml`. `scope`, `proxy` and `mtls` are this project's extensions
 * (DESIGN.md section 3); `$schema` lets editors find the JSON Schema.
 */
export const AuthConfig = z.strictObject({
  $schema: z.string().optional().describe('Ignored by multiauth: where editors find this JSON Schema.'),
  presets: z.array(Preset).default([]).describe('Users declared by type of authentication: each preset has a type (basic, http, oauth_userpass, ...) and its users; default [].'),
  procedures: z.array(Procedure).default([]).describe('Sign-ins of generic users: named lists of http, digest and browser operations; default [].'),
  users: z.array(User).default([]).describe('Generic users: a name, credentials, and the procedure that signs them in; default [].'),
  proxy: z.string().optional().describe('HTTP(S) proxy URL of sign-in requests, browser steps and session checks (http://proxy.example.test:3128).'),
  scope: z.array(z.string().min(1)).optional()
    .describe('Origins or URL globs (https://*.example.test/api/**) where signed-in pages send injected credentials; default the origin of Playwright\'s baseURL.'),
  mtls: z.array(MtlsCertificate).optional().describe('Client certificates (Playwright\'s clientCertificates shape) that users with repeater_mtls: true present.'),
  /**
   * Seconds a session lasts when nothing of its sign-in says (no `expires_in`, no JWT `exp`, no
   * `refresh.sessionSeconds`); then it is renewed. Escape's format has it too.
   */
  lifetime: z.int().positive().optional().describe('Seconds a session lasts when its sign-in does not say (no expires_in, no JWT exp, no refresh.sessionSeconds).'),
  /**
   * Which answers to a request that carried a session (from `authedRequest` or a signed-in page)
   * mean "signed out" and sign the user in again (once per test, once across workers), retrying
   * when idempotent: `on_status` (default `[401]`), `on_redirect` (the login page's path or URL
   * globs); `false`: none. A preset's or user's own `reauth` wins.
   */
  reauth: ReauthSetting.optional()
    .describe('Which answers to a signed-in request mean "signed out" and sign the user in again: {on_status, on_redirect, on_body}, true (default: HTTP 401) or false (none).'),
  validation: z.union([z.literal(false), Validation]).optional()
    .describe('How to know a session works, for every user without its own: {url, method, headers, body, status, match, not_match}, or false (none).'),
  mail: MailSetting.optional()
    .describe('Where tech: email steps read mail: exactly one of smtp ({port}: a sink multiauth runs), mailpit (URL) or maildev (URL).'),
  access: AccessMatrix.optional()
    .describe('Who may do what: requests sent as every user (and anonymous) and compared with what is expected (docs/access.md).'),
});

/** The validated config, as `compile/` receives it. */
export type AuthConfig = z.infer<typeof AuthConfig>;
/** The config as a user writes it (defaults not yet applied). */
export type AuthConfigInput = z.input<typeof AuthConfig>;
