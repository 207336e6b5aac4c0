import { z } from 'zod';
import { CloudRegion, Scopes, StringMap, TokenExtraction, TokenInjection, NameValues, Variables, Count, Body } from './common.js';
import { DigestSecondRequest, HttpRequestPreset } from './request.js';
import { BrowserProject } from './browser.js';
import { PASSKEY_HERE, PasskeySetting } from './passkey.js';
import { VALIDATION_HERE, ValidationSetting } from './validation.js';
import { REAUTH_HERE, ReauthSetting } from './reauth.js';

/**
 * The eleven presets of the format. Each lists its own users; `compile/` turns every preset into
 * ordinary users and procedures. A preset user's `username` is its name.
 */

/**
 * `refresh` on a preset's user: the session's length (`sessionSeconds`, which wins over what the
 * tokens say) and `keep`; the procedures stay the preset's (a preset without a refresh signs in again).
 */
export const PresetUserRefresh = z.strictObject({
  sessionSeconds: z.int().positive().optional().describe('Seconds the session lasts; wins over expires_in, a JWT exp and lifetime.'),
  keep: z.boolean().optional().describe('true: a renewal is laid over the old session; false: replaces it. Default true for OAuth and Cognito, else false.'),
});
export type PresetUserRefresh = z.infer<typeof PresetUserRefresh>;

const USERNAME = 'The user\'s name, as specs say it (authUser: alice); unique across users and presets.';
const REFRESH = 'The session\'s length (sessionSeconds) and whether a renewal keeps what it does not renew (keep); the procedures stay the preset\'s.';
const PRESET_TYPE = 'The type of authentication: basic, headers, http, digest, graphql, oauth_client_credentials, oauth_userpass (oauth_ropc), ' +
  'pool_userpass (cognito_userpass), oauth_authz_code_browser, webdriver, curl, curl_sequence, email_code or email_link. It decides the other keys.';
const EXTRACTIONS = 'Values read from the sign-in\'s exchange into variables: {name, location, key, regex}.';
const INJECTIONS = 'How the extracted variables reach every authenticated request: {location, key, prefix, variable} (Authorization: Bearer {{token}}).';
const WAIT = 'Seconds each browser step may wait (page loads, elements); default 10.';
const PASSWORD = 'The user\'s password ({{password}}). Write "${NAME}" and keep the secret in .env.';

const perUser = {
  headers: StringMap.optional().describe('Headers (a map) sent with the sign-in requests and with every authenticated request.'),
  cookies: StringMap.optional().describe('Cookies (a map) sent with the sign-in requests and with every authenticated request.'),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
};

/** BasicUserPreset: also the user of the digest preset. */
export const BasicUserPreset = z.strictObject({
  username: z.string().min(1).describe(USERNAME),
  password: z.string().describe('The user\'s password, sent as HTTP Basic. Write "${NAME}" and keep the secret in .env.'),
  ...perUser,
});
export type BasicUserPreset = z.infer<typeof BasicUserPreset>;

/** `basic`: HTTP Basic on every request. */
export const BasicPreset = z.strictObject({
  type: z.literal('basic').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(BasicUserPreset).describe('Its users: username, password, and headers, cookies, reauth.'),
});

/** `headers`: static headers. */
export const HeadersPreset = z.strictObject({
  type: z.literal('headers').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(
    z.strictObject({
      username: z.string().min(1).describe(USERNAME),
      headers: StringMap.describe('The headers (a map) that are the whole session ({ Authorization: "Bearer ${ALICE_TOKEN}" }).'),
      cookies: StringMap.optional().describe('Cookies (a map) sent with every authenticated request.'),
    }),
  ).describe('Its users: username and headers (and cookies).'),
});

/** HTTPUserPreset. */
export const HttpUserPreset = z.strictObject({
  username: z.string().min(1).describe(USERNAME),
  refresh: PresetUserRefresh.optional().describe(REFRESH),
  password: z.string().optional().describe(PASSWORD),
  ...perUser,
  queryParameters: StringMap.optional().describe('Query parameters (a map) sent like the headers (or query_parameters; one spelling).'),
  query_parameters: StringMap.optional().describe('Query parameters (a map) sent like the headers (or queryParameters; one spelling).'),
  body: Body.optional().describe('Any YAML or JSON value merged into the request bodies, like the headers.'),
});

/** `http`: one token request per user. */
export const HttpPreset = z.strictObject({
  type: z.literal('http').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(HttpUserPreset).describe('Its users: username, password, and headers, cookies, query parameters, body, refresh, reauth.'),
  request: HttpRequestPreset.describe('The sign-in request, sent for each user: url, method, headers, body... templated with {{username}}, {{password}}.'),
  extractions: z.array(TokenExtraction).describe(EXTRACTIONS),
  injections: z.array(TokenInjection).describe(INJECTIONS),
});

/** `digest`: RFC 7616 challenge and answer. */
export const DigestPreset = z.strictObject({
  type: z.literal('digest').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(BasicUserPreset).describe('Its users: username, password, and headers, cookies, reauth.'),
  first_request: HttpRequestPreset.describe('The request the server answers with the digest challenge: url, method, headers...'),
  second_request: DigestSecondRequest.optional().describe('The answered request: url and method, each defaulting to the first request\'s.'),
});

/** `graphql`: a login mutation or query. */
export const GraphqlPreset = z.strictObject({
  type: z.literal('graphql').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(
    z.strictObject({
      username: z.string().min(1).describe(USERNAME),
      refresh: PresetUserRefresh.optional().describe(REFRESH),
      variables: StringMap.describe('The GraphQL variables of the query (a map): { email: alice@example.test, password: "${ALICE_PASSWORD}" }.'),
      ...perUser,
    }),
  ).describe('Its users: username, variables, and headers, cookies, refresh, reauth.'),
  url: z.string().min(1).describe('The GraphQL endpoint (${BASE_URL}/graphql).'),
  query: z.string().min(1).describe('The login mutation or query, sent as written with the user\'s variables.'),
  extractions: z.array(TokenExtraction).optional().describe(`${EXTRACTIONS} Default: the first string under data whose key ends with token, into token.`),
  injections: z.array(TokenInjection).optional().describe(`${INJECTIONS} Default: Authorization: Bearer {{token}}.`),
});

/** How an OAuth client authenticates at the token endpoint (RFC 6749 section 2.3.1); default `post`. */
export const ClientAuth = z.enum(['post', 'basic']);

const CLIENT_AUTH = 'How the client authenticates at the token endpoint: post (client_id and client_secret in the form body, default) or basic (HTTP Basic).';
const SCOPES = 'OAuth scopes: a space-separated string (openid profile) or a list; absent or empty: no scope is sent.';

/** `oauth_client_credentials`: one client per user. */
export const OAuthClientCredentialsPreset = z.strictObject({
  type: z.literal('oauth_client_credentials').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(
    z.strictObject({
      username: z.string().min(1).describe(USERNAME),
      refresh: PresetUserRefresh.optional().describe(REFRESH),
      client_id: z.string().min(1).describe('The OAuth client id of this user.'),
      client_secret: z.string().describe('The OAuth client secret of this user. Write "${NAME}" and keep the secret in .env.'),
      scopes: Scopes.optional().describe(SCOPES),
      audience: z.string().min(1).optional().describe('The API the token is for (Auth0, Entra ID), sent as audience; overrides the preset\'s.'),
      ...perUser,
    }),
  ).describe('Its users, each an OAuth client: username (a name only), client_id, client_secret, scopes, audience.'),
  url: z.string().min(1).describe('The token endpoint (https://idp.example.test/oauth/token).'),
  client_auth: ClientAuth.optional().describe(CLIENT_AUTH),
  audience: z.string().min(1).optional().describe('The API every user\'s token is for (Auth0\'s audience parameter); a user may give its own.'),
});

const UserpassUser = z.strictObject({
  username: z.string().min(1).describe(USERNAME),
  refresh: PresetUserRefresh.optional().describe(REFRESH),
  password: z.string().describe(PASSWORD),
  scopes: Scopes.optional().describe(`${SCOPES} Ignored by pool_userpass.`),
  ...perUser,
});

/** `oauth_userpass` (alias `oauth_ropc`): the resource owner password grant. */
export const OAuthUserpassPreset = z.strictObject({
  type: z.enum(['oauth_userpass', 'oauth_ropc']).describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(UserpassUser).describe('Its users: username, password, scopes, and headers, cookies, refresh, reauth.'),
  url: z.string().min(1).describe('The token endpoint (https://idp.example.test/oauth/token).'),
  client_id: z.string().min(1).describe('The OAuth client id.'),
  client_secret: z.string().describe('The OAuth client secret. Write "${NAME}" and keep the secret in .env.'),
  client_auth: ClientAuth.optional().describe(CLIENT_AUTH),
});

/** `pool_userpass` (alias `cognito_userpass`): AWS Cognito USER_PASSWORD_AUTH. */
export const PoolUserpassPreset = z.strictObject({
  type: z.enum(['pool_userpass', 'cognito_userpass']).describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(UserpassUser).describe('Its users: username, password, and headers, cookies, refresh, reauth.'),
  region: CloudRegion.describe('The AWS region of the user pool (eu-west-1, us-east-1, ...).'),
  client_id: z.string().min(1).describe('The user pool\'s app client id.'),
  client_secret: z.string().optional().describe('The app client\'s secret; absent or "": an app client without a secret (no SECRET_HASH is sent).'),
  endpoint: z.string().min(1).optional().describe('Overrides https://cognito-idp.<region>.amazonaws.com/ (tests, VPC endpoints).'),
});

/** `webdriver`: a recorded Selenium IDE project per user. */
export const WebdriverPreset = z.strictObject({
  type: z.literal('webdriver').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(
    z.strictObject({
      username: z.string().min(1).describe(USERNAME),
      refresh: PresetUserRefresh.optional().describe(REFRESH),
      password: z.string().optional().describe('What {{password}} (and ${password}) is in the recorded steps; never sent anywhere else.'),
      variables: Variables.optional().describe('Values the recorded steps see ({{name}}, ${name}): a list of {name, value} or a map.'),
      project: BrowserProject.describe('The user\'s recorded Selenium IDE project (a .side export pasted whole works): tests of commands.'),
      passkey: PasskeySetting.optional().describe(PASSKEY_HERE),
      ...perUser,
    }),
  ).describe('Its users: username, project (the recorded steps), password, variables, and headers, cookies, refresh, reauth.'),
  wait_for_seconds: Count.optional().describe(WAIT),
  extractions: z.array(TokenExtraction).optional().describe(EXTRACTIONS),
  injections: z.array(TokenInjection).optional().describe(`${INJECTIONS} Absent: the session is what the browser kept (cookies, storage).`),
});

/** `curl`: a curl command per user, run in the sandboxed simulator. */
export const CurlPreset = z.strictObject({
  type: z.literal('curl').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(
    z.strictObject({
      username: z.string().min(1).describe(USERNAME),
      refresh: PresetUserRefresh.optional().describe(REFRESH),
      curl: z.string().min(1).describe('The user\'s curl command, run by the sandboxed simulator (never a shell): curl -X POST ${BASE_URL}/login -d user=alice.'),
      ...perUser,
    }),
  ).describe('Its users: username, curl, and headers, cookies, refresh, reauth.'),
  extractions: z.array(TokenExtraction).describe(EXTRACTIONS),
  injections: z.array(TokenInjection).describe(INJECTIONS),
});

/** `curl_sequence`: curl templates run in order, each seeing what the earlier ones extracted. */
export const CurlSequencePreset = z.strictObject({
  type: z.literal('curl_sequence').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(
    z.strictObject({
      username: z.string().min(1).describe(USERNAME),
      refresh: PresetUserRefresh.optional().describe(REFRESH),
      variables: Variables.optional().describe('What the commands are templated with ({{name}}): a map or a list of {name, value}.'),
      ...perUser,
    }),
  ).describe('Its users: username, variables, and headers, cookies, refresh, reauth.'),
  requests: z.array(
    z.strictObject({
      curl: z.string().min(1).describe('A curl command template, run by the sandboxed simulator: curl ${BASE_URL}/login -d "user={{user}}".'),
      extractions: z.array(TokenExtraction).optional().describe(`${EXTRACTIONS} Later commands see them.`),
    }),
  ).min(1).describe('The curl commands, one or more, run in order for each user: {curl, extractions}.'),
  injections: z.array(TokenInjection).optional().describe(INJECTIONS),
});

/**
 * `oauth_authz_code_browser`: the authorization code grant (RFC 6749 4.1) through the provider's
 * own login pages in a browser, with PKCE (RFC 7636, S256) unless `use_pkce: false`. Key names are
 * the format vendor's. Users sign in with recorded steps (`project`), or with the default login
 * (username, password, a one-time code from `totp_secret`, a consent button) when they have none.
 */
export const OAuthAuthzCodeBrowserPreset = z.strictObject({
  type: z.literal('oauth_authz_code_browser').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  authorization_url: z.string().min(1).describe('The provider\'s authorization endpoint (https://idp.example.test/authorize).'),
  token_url: z.string().min(1).describe('The provider\'s token endpoint (https://idp.example.test/oauth/token).'),
  client_id: z.string().min(1).describe('The OAuth client id.'),
  client_secret: z.string().optional().describe('The client secret; absent for a public client (PKCE is its proof).'),
  client_auth: ClientAuth.optional().describe(CLIENT_AUTH),
  redirect_uri: z.string().min(1).describe('A redirect URI registered for the client; the browser\'s visit to it is intercepted (it need not exist).'),
  scopes: Scopes.optional().describe(SCOPES),
  use_pkce: z.boolean().optional().describe('Send a PKCE challenge (S256); default true.'),
  wait_for_seconds: Count.optional().describe(WAIT),
  users: z.array(
    z.strictObject({
      username: z.string().min(1).describe(USERNAME),
      password: z.string().describe(PASSWORD),
      totp_secret: z.string().min(1).optional().describe('The base32 secret of the user\'s TOTP second factor, for the one-time code the provider asks.'),
      project: BrowserProject.optional().describe('Recorded login steps (Selenium IDE), run after the authorization request opens; absent: the default login.'),
      refresh: PresetUserRefresh.optional().describe(REFRESH),
      passkey: PasskeySetting.optional().describe(PASSKEY_HERE),
      ...perUser,
    }),
  ).describe('Its users: username, password, totp_secret, project, and headers, cookies, refresh, reauth.'),
});

/** Any preset, discriminated by `type`. */
/** The request of an email preset: the compact request, and statuses that count as success besides those below 400. */
const EmailPresetRequest = HttpRequestPreset.extend({
  accept_status: z.array(z.int().min(100).max(599)).min(1).max(20).optional()
    .describe('Statuses that count as success besides those below 400 ([403]: a first step that answers 403 and mails a code).'),
});

/** Which mail an email preset waits for (the `to` is each user's `email`). */
const EmailPresetMail = z.strictObject({
  subject: z.string().min(1).max(4096).optional().describe('An RE2 regex the decoded Subject must match (unanchored; (?i) for case); absent: any subject.'),
  from: z.string().min(1).max(4096).optional().describe('An RE2 regex the From header\'s address must match; absent: any sender.'),
  wait_for_seconds: z.int().min(1).max(600).optional().describe('Seconds to wait for the mail; default 30.'),
});

/** A user of an email preset: its name, the address its mail goes to, and what else its requests use. */
const EmailUserPreset = z.strictObject({
  username: z.string().min(1).describe(USERNAME),
  email: z.string().min(1).max(320).describe('The address the application mails ({{email}} in the requests; the mail is waited for there, matched exactly).'),
  password: z.string().optional().describe('A password the start request sends ({{password}}), for a password plus emailed code. Write "${NAME}" and keep it in .env.'),
  refresh: PresetUserRefresh.optional().describe(REFRESH),
  ...perUser,
});

const EMAIL_START = 'The request that makes the application send the mail, templated with {{email}} (and {{password}}): url, method, headers, body, accept_status.';
const EMAIL_SESSION_EXTRACTIONS = 'Values read from the last request\'s exchange into variables (a token); default none: the session is the cookies the sign-in set.';

/** `email_code`: a start request, a mailed code, a verify request that sends it. */
export const EmailCodePreset = z.strictObject({
  type: z.literal('email_code').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(EmailUserPreset).describe('Its users: username, email, and password, headers, cookies, refresh, reauth.'),
  start: EmailPresetRequest.describe(EMAIL_START),
  mail: EmailPresetMail.default({}).describe('Which mail carries the code: subject?, from?, wait_for_seconds?; the recipient is the user\'s email.'),
  code: z.string().min(1).max(4096).describe('An RE2 regex that picks the code out of the mail by its context: its group "value", else group 1 (code: (\\d{6})).'),
  code_in: z.enum(['body', 'subject']).optional().describe('Where the code is: body (the mail\'s text, default) or subject.'),
  verify: EmailPresetRequest.describe('The request that sends the code ({{code}}), templated like start: url, method, headers, body, accept_status.'),
  extractions: z.array(TokenExtraction).default([]).describe(EMAIL_SESSION_EXTRACTIONS),
  injections: z.array(TokenInjection).default([]).describe(INJECTIONS),
});

/** `email_link`: a start request, then the link of the mail, opened once. */
export const EmailLinkPreset = z.strictObject({
  type: z.literal('email_link').describe(PRESET_TYPE),
  validation: ValidationSetting.optional().describe(VALIDATION_HERE),
  reauth: ReauthSetting.optional().describe(REAUTH_HERE),
  users: z.array(EmailUserPreset).describe('Its users: username, email, and password, headers, cookies, refresh, reauth.'),
  start: EmailPresetRequest.describe(EMAIL_START),
  mail: EmailPresetMail.default({}).describe('Which mail carries the link: subject?, from?, wait_for_seconds?; the recipient is the user\'s email.'),
  link: z.string().min(1).max(2048).optional().describe('A glob of the link to open: its path (/auth/verify/**) or whole URL; the query is ignored unless the glob has one. Default: the mail\'s first link.'),
  extractions: z.array(TokenExtraction).default([]).describe(EMAIL_SESSION_EXTRACTIONS),
  injections: z.array(TokenInjection).default([]).describe(INJECTIONS),
});

export const Preset = z.discriminatedUnion('type', [
  BasicPreset,
  CurlPreset,
  CurlSequencePreset,
  DigestPreset,
  EmailCodePreset,
  EmailLinkPreset,
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
export type EmailCodePreset = z.infer<typeof EmailCodePreset>;
export type EmailLinkPreset = z.infer<typeof EmailLinkPreset>;
/** Keeps `NameValues` reachable for callers that normalise preset maps into lists. */
export type { NameValues };
