import { z } from 'zod';
import { Preset } from './presets.js';
import { Procedure } from './procedure.js';
import { User } from './user.js';
import { Validation } from './validation.js';
import { ReauthSetting } from './reauth.js';
import { AccessMatrix } from './access.js';

/**
 * An mTLS client certificate, in Playwright's `clientCertificates` shape (extension of the format).
 * Used by users with `repeater_mtls: true`.
 */
export const MtlsCertificate = z.strictObject({
  origin: z.string().min(1),
  certPath: z.string().optional(),
  keyPath: z.string().optional(),
  pfxPath: z.string().optional(),
  passphrase: z.string().optional(),
});
export type MtlsCertificate = z.infer<typeof MtlsCertificate>;

/**
 * The whole `multiauth.yaml`. `scope`, `proxy` and `mtls` are this project's extensions
 * (DESIGN.md section 3); `$schema` lets editors find the JSON Schema.
 */
export const AuthConfig = z.strictObject({
  $schema: z.string().optional(),
  presets: z.array(Preset).default([]),
  procedures: z.array(Procedure).default([]),
  users: z.array(User).default([]),
  /** Default HTTP(S) proxy URL of every sign-in request. */
  proxy: z.string().optional(),
  /** Origins or URL globs that browser contexts send injected credentials to. */
  scope: z.array(z.string().min(1)).optional(),
  mtls: z.array(MtlsCertificate).optional(),
  /**
   * Seconds a session lasts when nothing of its sign-in says (no `expires_in`, no JWT `exp`, no
   * `refresh.sessionSeconds`); then it is renewed. Escape's format has it too.
   */
  lifetime: z.int().positive().optional(),
  /**
   * Which answers to a request that carried a session (from `authedRequest` or a signed-in page)
   * mean "signed out" and sign the user in again (once per test, once across workers), retrying
   * when idempotent: `on_status` (default `[401]`), `on_redirect` (the login page's path or URL
   * globs); `false`: none. A preset's or user's own `reauth` wins.
   */
  reauth: ReauthSetting.optional(),
  /** How to know a session works, for every user that does not say otherwise (`false`: none). */
  validation: z.union([z.literal(false), Validation]).optional(),
  /** Who may do what: requests sent as every user and compared with what is expected (docs/access.md). */
  access: AccessMatrix.optional(),
});

/** The validated config, as `compile/` receives it. */
export type AuthConfig = z.infer<typeof AuthConfig>;
/** The config as a user writes it (defaults not yet applied). */
export type AuthConfigInput = z.input<typeof AuthConfig>;
