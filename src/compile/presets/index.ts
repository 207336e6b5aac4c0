import type { Preset } from '../../config/index.js';
import { compileBasicPreset } from './basic.js';
import { compileCurlPreset } from './curl.js';
import { compileCurlSequencePreset } from './curl-sequence.js';
import { compileDigestPreset } from './digest.js';
import { compileGraphqlPreset } from './graphql.js';
import { compileHeadersPreset } from './headers.js';
import { compileHttpPreset } from './http.js';
import { compileOAuthClientCredentialsPreset } from './oauth-client-credentials.js';
import { compileOAuthUserpassPreset } from './oauth-userpass.js';
import { compileOAuthAuthzCodeBrowserPreset } from './oauth-authz-code-browser.js';
import { compilePoolUserpassPreset } from './pool-userpass.js';
import type { CanonicalPresetType, PresetOutput, PresetSite } from './preset-output.js';
import { compileWebdriverPreset } from './webdriver.js';
import { compileEmailCodePreset, compileEmailLinkPreset } from './email.js';

export { cognitoSecretHash } from './cognito-secret-hash.js';
export { presetProcedureName, type CanonicalPresetType, type PresetOutput, type PresetSite } from './preset-output.js';

/** Aliases accepted for pasted configs (DESIGN.md), by the name they stand for. */
const PRESET_ALIASES: Record<string, CanonicalPresetType> = {
  oauth_ropc: 'oauth_userpass',
  cognito_userpass: 'pool_userpass',
};

/**
 * The canonical name of a preset type.
 *
 * @example
 * canonicalPresetType('cognito_userpass'); // 'pool_userpass'
 * canonicalPresetType('http');             // 'http'
 */
export function canonicalPresetType(type: Preset['type']): CanonicalPresetType {
  return PRESET_ALIASES[type] ?? (type as CanonicalPresetType);
}

/** The preset whose `type` (or one of its aliases) is `T`. */
type PresetOf<T extends CanonicalPresetType, P = Preset> = P extends { type: infer K } ? (T extends K ? P : never) : never;

/** One compiler per preset type. */
const COMPILERS: { [T in CanonicalPresetType]: (preset: PresetOf<T>, site: PresetSite) => PresetOutput } = {
  basic: compileBasicPreset,
  headers: compileHeadersPreset,
  http: compileHttpPreset,
  digest: compileDigestPreset,
  graphql: compileGraphqlPreset,
  oauth_client_credentials: compileOAuthClientCredentialsPreset,
  oauth_userpass: compileOAuthUserpassPreset,
  oauth_authz_code_browser: compileOAuthAuthzCodeBrowserPreset,
  pool_userpass: compilePoolUserpassPreset,
  webdriver: compileWebdriverPreset,
  curl: compileCurlPreset,
  curl_sequence: compileCurlSequencePreset,
  email_code: compileEmailCodePreset,
  email_link: compileEmailLinkPreset,
};

/**
 * Compiles the preset at `presets[index]` into ordinary users and procedures.
 *
 * @example
 * compilePreset({ type: 'basic', users: [{ username: 'alice', password: 'pw' }] }, 0);
 * // { users: [{ name: 'alice', origin: ['presets', 0, 'users', 0], ... }], procedures: [], secrets: [] }
 */
export function compilePreset(preset: Preset, index: number): PresetOutput {
  const type = canonicalPresetType(preset.type);
  const compiler = COMPILERS[type] as (preset: Preset, site: PresetSite) => PresetOutput;
  return compiler(preset, { index, origin: ['presets', index], type });
}
