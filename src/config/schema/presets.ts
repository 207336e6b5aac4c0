import { z } from 'zod';
import { CloudRegion, Scopes, StringMap, TokenExtraction, TokenInjection, NameValues, Variables, Count, Body } from './common.js';
import { DigestSecondRequest, HttpRequestPreset } from './request.js';
import { BrowserProject } from './browser.js';
import { ValidationSetting } from './validation.js';
import { ReauthSetting } from './reauth.js';

/**
 * The eleven presets of the format. Each lists its own users; `compile/` turns every preset into
 * ordinary users and procedures. A preset user's `username` is its name.
 */

/**
 * `refresh` on a preset's user: the session's length (`sessionSeconds`, which wins over what the
 * tokens say) and `keep`; the procedures stay the preset's (a preset without a refresh signs in again).
 */
export const PresetUserRefresh = z.strictObject({
  sessionSeconds: z.int().positive().optional(),
  keep: z.boolean().optional(),
});
export type PresetUserRefresh = z.infer<typeof PresetUserRefresh>;

const perUser = {
  /** Injected during authentication and in authenticated requests. */
  headers: StringMap.optional(),
  cookies: StringMap.optional(),
  /** What a signed-out answer looks like for this user (see the top-level `reauth`); the nearest wins. */
  reauth: ReauthSetting.optional(),
};

/** BasicUserPreset: also the user of the digest preset. */
export const BasicUserPreset = z.strictObject({
  username: z.string().min(1),
  password: z.string(),
  ...perUser,
});
export type BasicUserPreset = z.infer<typeof BasicUserPreset>;

/** `basic`: HTTP Basic on every request. */
export const BasicPreset = z.strictObject({
  type: z.literal('basic'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(BasicUserPreset),
});

/** `headers`: static headers. */
export const HeadersPreset = z.strictObject({
  type: z.literal('headers'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(
    z.strictObject({
      username: z.string().min(1),
      headers: StringMap,
      cookies: StringMap.optional(),
    }),
  ),
});

/** HTTPUserPreset. */
export const HttpUserPreset = z.strictObject({
  username: z.string().min(1),
  /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
  refresh: PresetUserRefresh.optional(),
  password: z.string().optional(),
  ...perUser,
  queryParameters: StringMap.optional(),
  query_parameters: StringMap.optional(),
  body: Body.optional(),
});

/** `http`: one token request per user. */
export const HttpPreset = z.strictObject({
  type: z.literal('http'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(HttpUserPreset),
  request: HttpRequestPreset,
  extractions: z.array(TokenExtraction),
  injections: z.array(TokenInjection),
});

/** `digest`: RFC 7616 challenge and answer. */
export const DigestPreset = z.strictObject({
  type: z.literal('digest'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(BasicUserPreset),
  first_request: HttpRequestPreset,
  second_request: DigestSecondRequest.optional(),
});

/** `graphql`: a login mutation or query. */
export const GraphqlPreset = z.strictObject({
  type: z.literal('graphql'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(
    z.strictObject({
      username: z.string().min(1),
      /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
      refresh: PresetUserRefresh.optional(),
      variables: StringMap,
      ...perUser,
    }),
  ),
  url: z.string().min(1),
  query: z.string().min(1),
  extractions: z.array(TokenExtraction).optional(),
  injections: z.array(TokenInjection).optional(),
});

/** How an OAuth client authenticates at the token endpoint (RFC 6749 section 2.3.1); default `post`. */
export const ClientAuth = z.enum(['post', 'basic']);

/** `oauth_client_credentials`: one client per user. */
export const OAuthClientCredentialsPreset = z.strictObject({
  type: z.literal('oauth_client_credentials'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(
    z.strictObject({
      username: z.string().min(1),
      /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
      refresh: PresetUserRefresh.optional(),
      client_id: z.string().min(1),
      client_secret: z.string(),
      scopes: Scopes.optional(),
      /** The API the token is for (Auth0, Entra ID), sent as `audience`; overrides the preset's. */
      audience: z.string().min(1).optional(),
      ...perUser,
    }),
  ),
  url: z.string().min(1),
  client_auth: ClientAuth.optional(),
  /** The API every user's token is for (Auth0's `audience` parameter); a user may give its own. */
  audience: z.string().min(1).optional(),
});

const UserpassUser = z.strictObject({
  username: z.string().min(1),
  /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
  refresh: PresetUserRefresh.optional(),
  password: z.string(),
  scopes: Scopes.optional(),
  ...perUser,
});

/** `oauth_userpass` (alias `oauth_ropc`): the resource owner password grant. */
export const OAuthUserpassPreset = z.strictObject({
  type: z.enum(['oauth_userpass', 'oauth_ropc']),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(UserpassUser),
  url: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string(),
  client_auth: ClientAuth.optional(),
});

/** `pool_userpass` (alias `cognito_userpass`): AWS Cognito USER_PASSWORD_AUTH. */
export const PoolUserpassPreset = z.strictObject({
  type: z.enum(['pool_userpass', 'cognito_userpass']),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(UserpassUser),
  region: CloudRegion,
  client_id: z.string().min(1),
  /** Absent (or empty) for an app client without a secret: then no SECRET_HASH is sent. */
  client_secret: z.string().optional(),
  /** Overrides `https://cognito-idp.<region>.amazonaws.com/` (tests, VPC endpoints). */
  endpoint: z.string().min(1).optional(),
});

/** `webdriver`: a recorded Selenium IDE project per user. */
export const WebdriverPreset = z.strictObject({
  type: z.literal('webdriver'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(
    z.strictObject({
      username: z.string().min(1),
      /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
      refresh: PresetUserRefresh.optional(),
      /** What `{{password}}` (and `${password}`) is in the recorded steps: never sent anywhere else. */
      password: z.string().optional(),
      /** Variables the recorded steps see (`{{name}}`, `${name}`). */
      variables: Variables.optional(),
      project: BrowserProject,
      ...perUser,
    }),
  ),
  wait_for_seconds: Count.optional(),
  extractions: z.array(TokenExtraction).optional(),
  injections: z.array(TokenInjection).optional(),
});

/** `curl`: a curl command per user, run in the sandboxed simulator. */
export const CurlPreset = z.strictObject({
  type: z.literal('curl'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(
    z.strictObject({
      username: z.string().min(1),
      /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
      refresh: PresetUserRefresh.optional(),
      curl: z.string().min(1),
      ...perUser,
    }),
  ),
  extractions: z.array(TokenExtraction),
  injections: z.array(TokenInjection),
});

/** `curl_sequence`: curl templates run in order, each seeing what the earlier ones extracted. */
export const CurlSequencePreset = z.strictObject({
  type: z.literal('curl_sequence'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  users: z.array(
    z.strictObject({
      username: z.string().min(1),
      /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
      refresh: PresetUserRefresh.optional(),
      variables: Variables.optional(),
      ...perUser,
    }),
  ),
  requests: z.array(
    z.strictObject({
      curl: z.string().min(1),
      extractions: z.array(TokenExtraction).optional(),
    }),
  ).min(1),
  injections: z.array(TokenInjection).optional(),
});

/**
 * `oauth_authz_code_browser`: the authorization code grant (RFC 6749 4.1) through the provider's
 * own login pages in a browser, with PKCE (RFC 7636, S256) unless `use_pkce: false`. Key names are
 * the format vendor's. Users sign in with recorded steps (`project`), or with the default login
 * (username, password, a one-time code from `totp_secret`, a consent button) when they have none.
 */
export const OAuthAuthzCodeBrowserPreset = z.strictObject({
  type: z.literal('oauth_authz_code_browser'),
  validation: ValidationSetting.optional(),
  reauth: ReauthSetting.optional(),
  /** The provider's authorization endpoint. */
  authorization_url: z.string().min(1),
  /** The provider's token endpoint. */
  token_url: z.string().min(1),
  client_id: z.string().min(1),
  /** Absent for a public client (no client authentication: PKCE is its proof). */
  client_secret: z.string().optional(),
  /** How a confidential client authenticates at the token endpoint (default `post`). */
  client_auth: ClientAuth.optional(),
  /** A redirect URI registered for the client; the browser's visit to it is intercepted (it need not exist). */
  redirect_uri: z.string().min(1),
  scopes: Scopes.optional(),
  /** Send a PKCE challenge (default true). */
  use_pkce: z.boolean().optional(),
  /** How long each browser step may wait (seconds, default 10). */
  wait_for_seconds: Count.optional(),
  users: z.array(
    z.strictObject({
      username: z.string().min(1),
      password: z.string(),
      /** The base32 secret of the user's TOTP second factor, for the one-time code the provider asks. */
      totp_secret: z.string().min(1).optional(),
      /** Recorded login steps (Selenium IDE), run after the authorization request opens; else the default login. */
      project: BrowserProject.optional(),
      /** How long this user's session lasts, and whether a renewal keeps what it does not renew. */
      refresh: PresetUserRefresh.optional(),
      ...perUser,
    }),
  ),
});

/** Any preset, discriminated by `type`. */
export const Preset = z.discriminatedUnion('type', [
  BasicPreset,
  CurlPreset,
  CurlSequencePreset,
  DigestPreset,
  GraphqlPreset,
  HeadersPreset,
  HttpPreset,
  OAuthClientCredentialsPreset,
  OAuthUserpassPreset,
  OAuthAuthzCodeBrowserPreset,
  PoolUserpassPreset,
  WebdriverPreset,
]);
export type Preset = z.infer<typeof Preset>;
export type PresetType = Preset['type'];

export type BasicPreset = z.infer<typeof BasicPreset>;
export type HeadersPreset = z.infer<typeof HeadersPreset>;
export type HttpPreset = z.infer<typeof HttpPreset>;
export type DigestPreset = z.infer<typeof DigestPreset>;
export type GraphqlPreset = z.infer<typeof GraphqlPreset>;
export type OAuthAuthzCodeBrowserPreset = z.infer<typeof OAuthAuthzCodeBrowserPreset>;
export type OAuthClientCredentialsPreset = z.infer<typeof OAuthClientCredentialsPreset>;
export type OAuthUserpassPreset = z.infer<typeof OAuthUserpassPreset>;
export type PoolUserpassPreset = z.infer<typeof PoolUserpassPreset>;
export type WebdriverPreset = z.infer<typeof WebdriverPreset>;
export type CurlPreset = z.infer<typeof CurlPreset>;
export type CurlSequencePreset = z.infer<typeof CurlSequencePreset>;
/** Keeps `NameValues` reachable for callers that normalise preset maps into lists. */
export type { NameValues };
