import type { ConfigPath } from '../core/path.js';
import type { ConfigIssue } from '../core/errors.js';
import type {
  BrowserProject,
  HttpLocation,
  HttpMethod,
  MtlsCertificate,
  TokenExtraction,
  TokenInjection,
} from '../config/schema/index.js';

/**
 * The compiled form of a config: every preset has become ordinary users and procedures, every
 * alias and shape variant is normalised. `runtime/` executes a Plan and never looks at the raw
 * config. Every element keeps `origin`, the config path it came from, so runtime errors and
 * `multiauth validate` can point at `file:line:col`.
 *
 * Strings may hold `{{name}}` templates; they are expanded at run time, value by value.
 */
export interface Plan {
  /** Users in declaration order: presets first (in order), then `users`. */
  users: PlanUser[];
  /** Procedures by name: the config's own plus those compiled from presets. */
  procedures: Record<string, PlanProcedure>;
  /** Default proxy of every sign-in request (top-level `proxy`). */
  proxy?: string;
  /** Seconds a session lasts when its sign-in says nothing of its expiry (top-level `lifetime`). */
  lifetime?: number;
  /** Origins/globs that browser contexts send injected credentials to; empty = see DESIGN.md. */
  scope: string[];
  mtls: MtlsCertificate[];
  /**
   * Secret values that compile wrote into procedures (client secrets, derived `Authorization: Basic`
   * client credentials, Cognito SECRET_HASH values). `planSecrets()` returns them together with
   * what it finds in users (passwords, credential values, variables). Absent = none.
   */
  secrets?: string[];
  /** The access matrix (`access`), when the config has one. */
  access?: PlanAccess;
  /** Where `tech: email` steps read mail (top-level `mail`); absent: the config has none. */
  mail?: PlanMail;
}

/**
 * Where mail is read, resolved by compile: the package's own SMTP sink (`apiPort` where readers
 * reach it, on loopback), or a catcher's API. `runtime/mail`'s `MailSource` has the same shape.
 */
export type PlanMail =
  | { kind: 'smtp'; host: string; port: number; apiPort: number }
  | { kind: 'mailpit'; url: string }
  | { kind: 'maildev'; url: string };

/** One name and its values, for headers, cookies and query parameters. Values are raw (not encoded). */
export interface NameValuesList {
  name: string;
  values: string[];
}

/** A static cookie of a user: its values, and where a browser would send it (absent domain: everywhere). */
export interface PlanCookie extends NameValuesList {
  domain?: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** Static credentials sent with every request for a user (spec: Credentials), normalised. */
export interface PlanCredentials {
  username?: string;
  password?: string;
  headers: NameValuesList[];
  cookies: PlanCookie[];
  /** localStorage and sessionStorage items of every signed-in page of the scope's origins. */
  storage?: { localStorage: Array<{ name: string; value: string }>; sessionStorage: Array<{ name: string; value: string }> };
  query: NameValuesList[];
  body?: unknown;
  /** Where `username` + `password` are sent as HTTP Basic ({@link BasicRule}). */
  basic: BasicRule;
}

/**
 * Where a user's `username` + `password` are sent as HTTP Basic (DESIGN.md "Requests": a password
 * is never sent where nobody asked for it):
 * - `requests`: on every authenticated request, because the user's authentication *is* Basic (the
 *   `basic` preset; a generic user with both and no procedure);
 * - `sign-in`: on the sign-in requests that have no `Authorization` of their own (the `http`
 *   preset: npm registries expect it there), never on the session's requests;
 * - `none`: nowhere; they are the template values `{{username}}` and `{{password}}` only.
 */
export type BasicRule = 'requests' | 'sign-in' | 'none';

/** How a user was declared, for explain output and annotations. */
export type UserSource =
  | { kind: 'user' }
  | { kind: 'preset'; type: string; index: number };

/** A user ready to sign in. */
export interface PlanUser {
  name: string;
  origin: ConfigPath;
  source: UserSource;
  credentials: PlanCredentials;
  /** Variables seen by the procedure from its start (the user's `variables`). */
  variables: Record<string, string>;
  /** Procedure that signs the user in; absent = static credentials only (basic, headers). */
  procedure?: string;
  refresh?: PlanRefresh;
  /** Use the config's `mtls` certificates (spec: repeater_mtls). */
  mtls: boolean;
  /** How to know the user's session works (`validation`), when a check applies to it. */
  validation?: PlanValidation;
  /**
   * What a "signed out" answer looks like (`reauth`, the nearest one): false = none signs this user
   * in again; unset = the default, HTTP 401.
   */
  reauth?: false | PlanReauth;
  /**
   * Unset environment variables this user's part of the config needs (`markMissingEnv`), each a
   * located error: the user cannot sign in, the others can. Absent when none is missing.
   */
  missingEnv?: ConfigIssue[];
  /** The user's passkey (`passkey`), seeded into every browser context of the user. */
  passkey?: PlanPasskey;
}

/**
 * A user's passkey, resolved by compile: a credential written in the config (`seeded`, in the
 * camelCase shape of Playwright's `context.credentials.create`), or `register`: the one the app
 * registers during the sign-in, captured into the session.
 */
export type PlanPasskey =
  | { kind: 'seeded'; rpId: string; id: string; userHandle: string; privateKey: string; publicKey: string; signCount: number; origin: ConfigPath }
  | { kind: 'register'; origin: ConfigPath };

/** The answers that mean a user's session is dead (`reauth`), resolved by compile. */
export interface PlanReauth {
  /** Statuses, e.g. `[401, 403]`. */
  onStatus: number[];
  /** Globs of redirect targets: paths (`/accounts/login/**`) or absolute URLs. */
  onRedirect: string[];
  /** Regexes (the user's syntax, see `compileUserRegex`) of an answer's text that mean "signed out"; absent: none. */
  onBody?: string[];
}

/**
 * How a session is renewed, its defaults resolved by compile (`resolveRefresh`): the runtime reads
 * these values as they are.
 */
export interface PlanRefresh {
  /** Procedure a refresh runs: the rule's own, else the user's; absent when neither has one. */
  procedure?: string;
  /** Lifetime of a session in seconds; absent = what the tokens say (`expires_in`, a JWT's `exp`). */
  sessionSeconds?: number;
  keep: boolean;
  /** Credentials of the refresh run: the rule's own, else the user's (the same object). */
  credentials: PlanCredentials;
  /** Variables of the refresh run: the rule's own, else the user's (the same object). */
  variables: Record<string, string>;
}

/** A named list of operations and the injections made at its end. */
export interface PlanProcedure {
  name: string;
  origin: ConfigPath;
  operations: PlanOperation[];
  injections: PlanInjection[];
  /** Set when compiled from a preset: explain output says which. */
  fromPreset?: string;
}

/** A session check (`validation`), resolved for a user: sent with the session applied. */
export interface PlanValidation {
  url: string;
  method: HttpMethod;
  /** Headers sent besides the session's, in config order; absent: none. */
  headers?: Array<[string, string]>;
  /** Body as written: a string sent as is, or a JSON value; absent: none. */
  body?: unknown;
  /** Accepted statuses; absent = any 2xx. */
  status?: number[];
  /** Regex the body must match / must not match (the user's syntax, see `compileUserRegex`). */
  match?: string;
  notMatch?: string;
  /** Where it is written, for errors. */
  origin: ConfigPath;
}

/** A request template: every string may contain `{{var}}`. Header/cookie/query lists keep order. */
export interface RequestTemplate {
  url: string;
  method: HttpMethod;
  headers: NameValuesList[];
  cookies: NameValuesList[];
  query: NameValuesList[];
  /**
   * A string, or a JSON value. Absent = no body. A string is sent as is. A JSON value is sent as
   * JSON, except when the request's `Content-Type` is `application/x-www-form-urlencoded`: then an
   * object's top-level values are form-encoded, each after template expansion, so a value is encoded
   * exactly once (the OAuth presets rely on this for RFC 6749 token requests: a `+` or `&` in a
   * password or refresh token must survive).
   */
  body?: unknown;
  proxy?: string;
  /** Seconds; absent = 30. */
  timeout?: number;
  insecure?: boolean;
  /** Absent = 20; 0 = none. */
  followRedirects?: number;
  /** Statuses that count as success besides those below 400 (`accept_status`); absent = none. */
  acceptStatus?: number[];
  /**
   * HTTP Basic credentials to send as `Authorization: Basic` AFTER templating, unless `headers` has
   * an `Authorization`. Set only by the curl simulator, for `-u '{{user}}:{{password}}'` (or a URL's
   * `user:password@` with templates), which cannot be Base64-encoded before the variables are
   * known; a literal `-u` becomes the header directly.
   */
  basicAuth?: { username: string; password: string };
}

/**
 * Protocol rules applied to a response on top of the HTTP status check (a 2xx can still be a
 * failed sign-in): `graphql` fails on a non-empty `errors` array; `oauth` renders RFC 6749 5.2 error
 * bodies; `cognito` renders `__type` errors and refuses challenges (NEW_PASSWORD_REQUIRED, MFA).
 */
export type ResponseDialect = 'graphql' | 'oauth' | 'cognito';

/** An extraction, normalised. */
export interface PlanExtraction extends Omit<TokenExtraction, 'origin' | 'key'> {
  /** As written; `''` when left out (a whole body, a mail's first link). */
  key: string;
  origin: ConfigPath;
  /** The config's `origin` of a browser storage extraction, as a URL origin (`https://a.test`); absent = any. */
  storageOrigin?: string;
  /**
   * When true, finding nothing leaves the variable unset instead of failing the step (presets use
   * it for values a server may or may not return, such as `refresh_token` and `expires_in`).
   * Absent = false.
   */
  optional?: boolean;
  /**
   * A search rule for `body` extractions that cannot be written as a key. `first-key-ending-token`:
   * the first string found depth-first under `key` (a dot path such as `data`) whose property name
   * ends with `token`, ignoring case: the `graphql` preset's default extraction (DESIGN.md).
   */
  match?: 'first-key-ending-token';
}

/** An injection, normalised. */
export interface PlanInjection extends Omit<TokenInjection, 'origin'> {
  origin: ConfigPath;
  /** The config's `origin` of a browser storage injection, as a URL origin (`https://a.test`). */
  storageOrigin?: string;
}

interface OperationBase {
  origin: ConfigPath;
  extractions: PlanExtraction[];
}

/** Send one request. */
export interface PlanHttpOperation extends OperationBase {
  tech: 'http';
  request: RequestTemplate;
  dialect?: ResponseDialect;
  /** Set when compile wrote the request from another form (a curl command); absent = written as `http`. */
  source?: CurlSource;
  /**
   * True when the request carries a value an earlier `tech: email` step read (a magic link, a
   * code): such a value is good for one use, so the request is sent once, never retried.
   */
  singleUse?: boolean;
}

/**
 * The curl command an `http` operation was compiled from (`curl` and `curl_sequence` presets). The
 * runtime applies the sandbox's rules that need the variables (the URL and proxy must still be
 * http(s) once templated) and names the command in the step's errors.
 */
export interface CurlSource {
  kind: 'curl';
  /** The command as written, on one line, every secret of the plan masked: safe to print. */
  command: string;
}

/** RFC 7616 digest: the first request draws the challenge, the second answers it. */
export interface PlanDigestOperation extends OperationBase {
  tech: 'digest';
  first: RequestTemplate;
  /** Absent fields default to the first request's. */
  second: { url?: string; method?: HttpMethod };
}

/**
 * Run a Selenium IDE project in a browser. `origin` is the config object that holds `project` (an
 * operation's `parameters`, a webdriver user), so `[...origin, 'project', 'tests', i, ...]` locates
 * a command.
 */
/**
 * A browser operation that starts an authorization request (RFC 6749 4.1.1) and ends when the
 * browser is sent to the redirect URI, which is intercepted: its `code` becomes the variable
 * `authorization_code` (after `state` is checked against `{{state}}`), its `error` the step's error.
 */
export interface PlanAuthorization {
  /** The authorization request URL, templated (`{{state}}`, `{{pkce_challenge}}`). */
  url: string;
  /** Navigation to this origin and path is intercepted. */
  redirectUri: string;
  /** No recorded steps: fill the usual login, one-time code and consent pages until the redirect. */
  defaultLogin: boolean;
}

export interface PlanBrowserOperation extends OperationBase {
  tech: 'browser';
  project: BrowserProject;
  /** Start with an authorization request and end at its redirect (`oauth_authz_code_browser`). */
  authorize?: PlanAuthorization;
  /** Seconds each step may wait; absent = 10. */
  waitForSeconds?: number;
  proxy?: string;
}

/**
 * Wait for a mail (`tech: email`): the first to `to` (a template) that arrived after the procedure
 * started and whose Subject and From match; its extractions read it (`body`, `header`, `link`, `query`).
 */
export interface PlanEmailOperation extends OperationBase {
  tech: 'email';
  /** The recipient, templated (`{{email}}`). */
  to: string;
  /** RE2 regexes (the user's syntax, see `compileUserRegex`), unanchored; absent: any. */
  subject?: string;
  from?: string;
  /** Seconds to wait, default resolved: 30. */
  waitForSeconds: number;
}

/** Any compiled operation, discriminated by `tech`. */
export type PlanOperation = PlanHttpOperation | PlanDigestOperation | PlanBrowserOperation | PlanEmailOperation;

export type { HttpLocation };

/** What a user may get from a request of the access matrix: `allow`, `deny` or an exact status. */
export type PlanAccessVerdict = 'allow' | 'deny' | number;

/** One request of the access matrix, its `{{ users.NAME.VAR }}` written in by compile. */
export interface PlanAccessRequest {
  name: string;
  method: HttpMethod;
  /** Absolute URL, ready to send. */
  url: string;
  headers: NameValuesList[];
  /** A string, sent as is, or JSON. Absent = no body. */
  body?: unknown;
  /** Not GET, HEAD or OPTIONS: sent after the safe requests. */
  unsafe: boolean;
  origin: ConfigPath;
}

/** The access matrix (`access`), resolved by compile: who is run, what is sent, what each should get. */
export interface PlanAccess {
  /** Safe requests in declared order, then the unsafe ones in declared order: the order they run. */
  requests: PlanAccessRequest[];
  /** The users of `expect`, in its order; `anonymous` is the user without a session. */
  users: string[];
  /** user -> request name -> what is expected; every user has every request. */
  expect: Record<string, Record<string, PlanAccessVerdict>>;
  /** Statuses that count as deny. */
  deny: number[];
  /**
   * What tells an answer to `anonymous` is the page of someone signed out, besides the statuses and
   * every user's login redirect: the top-level validation's `not_match`, and every user's `on_body`.
   */
  anonymous: { notMatch?: string; onBody: string[] };
  origin: ConfigPath;
}
