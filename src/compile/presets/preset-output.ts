import type { ConfigIssue } from '../../core/errors.js';
import type { ConfigPath } from '../../core/path.js';
import type { PlanCredentials, PlanProcedure, PlanUser } from '../plan.js';
import { resolveRefresh, type RefreshRule } from '../refresh.js';
import { planPasskey } from '../passkey.js';
import type { PasskeySetting } from '../../config/index.js';

/** The canonical preset types (aliases resolved). */
export type CanonicalPresetType =
  | 'basic'
  | 'headers'
  | 'http'
  | 'digest'
  | 'graphql'
  | 'oauth_client_credentials'
  | 'oauth_userpass'
  | 'oauth_authz_code_browser'
  | 'pool_userpass'
  | 'webdriver'
  | 'curl'
  | 'curl_sequence'
  | 'email_code'
  | 'email_link';

/** Where a preset sits in the config: what its compiler needs besides the preset itself. */
export interface PresetSite {
  /** Index in `presets`. */
  index: number;
  /** `['presets', index]`. */
  origin: ConfigPath;
  type: CanonicalPresetType;
}

/** What one preset compiles to. */
export interface PresetOutput {
  users: PlanUser[];
  procedures: PlanProcedure[];
  /** Secret values written into the procedures (see `Plan.secrets`). */
  secrets: string[];
  /** What stops the preset from compiling (a curl command the simulator refuses), each at its config path. */
  issues?: ConfigIssue[];
}

/**
 * Name of a procedure compiled from a preset. Shared procedures are `preset[<index>]:<type>`;
 * procedures that differ per user (a user's own curl command, OAuth client, browser project) are
 * `preset[<index>]:<type>:<user>`; their refresh procedures `preset[<index>]:<type>-refresh:<user>`.
 * The `preset[` prefix keeps them apart from the config's own procedure names (a clash is reported
 * by `compile`), and the refresh marker sits before the user name so no user name can clash with it.
 *
 * @example
 * presetProcedureName({ index: 2, type: 'http', origin: ['presets', 2] });                  // 'preset[2]:http'
 * presetProcedureName({ index: 0, type: 'curl', origin: ['presets', 0] }, 'alice');          // 'preset[0]:curl:alice'
 * presetProcedureName({ index: 1, type: 'oauth_userpass', origin: ['presets', 1] }, 'bob', 'refresh');
 * // 'preset[1]:oauth_userpass-refresh:bob'
 */
export function presetProcedureName(site: PresetSite, user?: string, role?: 'refresh'): string {
  const base = `preset[${site.index}]:${site.type}${role ? `-${role}` : ''}`;
  return user === undefined ? base : `${base}:${user}`;
}

/**
 * A user compiled from a preset: its name is the preset user's `username` (DESIGN.md), its origin
 * the preset's users list entry; its refresh rule is resolved against it (see `resolveRefresh`).
 *
 * @example
 * presetUser(site, 0, 'alice', presetCredentials({}), { procedure: 'preset[0]:curl:alice' });
 */
export function presetUser(
  site: PresetSite,
  userIndex: number,
  name: string,
  credentials: PlanCredentials,
  extra: Partial<Pick<PlanUser, 'procedure' | 'variables'>> & { refresh?: RefreshRule; passkey?: PasskeySetting } = {},
): PlanUser {
  const user: PlanUser = {
    name,
    origin: [...site.origin, 'users', userIndex],
    source: { kind: 'preset', type: site.type, index: site.index },
    credentials,
    variables: extra.variables ?? {},
    mtls: false,
  };
  if (extra.procedure !== undefined) user.procedure = extra.procedure;
  if (extra.refresh !== undefined) user.refresh = resolveRefresh(extra.refresh, user);
  if (extra.passkey !== undefined) user.passkey = planPasskey(extra.passkey, [...user.origin, 'passkey']);
  return user;
}
