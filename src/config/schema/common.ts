import { z } from 'zod';

/**
 * Building blocks shared by operations, procedures, users and presets. Every object is strict: an
 * unknown key is an error (a misspelt key must never be silently ignored).
 */

/** HTTP methods the format allows (spec: HTTPMethod). */
export const HttpMethod = z.enum(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);
export type HttpMethod = z.infer<typeof HttpMethod>;

/** Where a value is read from or written to (spec: HTTPLocation). */
export const HttpLocation = z.enum(['header', 'cookie', 'body', 'query']);
export type HttpLocation = z.infer<typeof HttpLocation>;

/**
 * Where an extraction reads or an injection writes: a part of the HTTP exchange, or the browser's
 * storage of one origin (the vendor's `browser_local_storage` and `browser_session_storage`).
 */
export const ValueLocation = z.enum([...HttpLocation.options, 'browser_local_storage', 'browser_session_storage']);
export type ValueLocation = z.infer<typeof ValueLocation>;

/** Where an extraction reads: any {@link ValueLocation}, and `link` (a link of a mail, `tech: email` only). */
export const ExtractionLocation = z.enum([...ValueLocation.options, 'link']);
export type ExtractionLocation = z.infer<typeof ExtractionLocation>;

/** Regions of the identity service (spec: CloudRegion). */
export const CloudRegion = z.enum([
  'us-east-2', 'us-east-1', 'us-west-1', 'us-west-2', 'af-south-1', 'ap-east-1', 'ap-south-1',
  'ap-northeast-3', 'ap-northeast-2', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1',
  'ca-central-1', 'cn-north-1', 'cn-northwest-1', 'eu-central-1', 'eu-west-1', 'eu-west-2',
  'eu-south-1', 'eu-west-3', 'eu-north-1', 'me-south-1', 'sa-east-1',
]);
export type CloudRegion = z.infer<typeof CloudRegion>;

/** A non-negative whole number of seconds, redirects, etc. */
export const Count = z.int().min(0);

/** `Dict[string, string]` of the spec: preset headers, cookies, query parameters. */
export const StringMap = z.record(z.string(), z.string());
export type StringMap = z.infer<typeof StringMap>;

/**
 * HTTPHeader / HTTPCookie / HTTPQueryParameter: a name and its values. The spec allows several
 * values; published configs write `values` as a list, hand-written ones often as one string.
 */
export const NameValues = z.strictObject({
  name: z.string().min(1).describe('The header, cookie or query parameter name (not empty).'),
  values: z.union([z.string(), z.array(z.string())]).describe('Its values, each sent: a string (one value) or a list of strings.'),
});
export type NameValues = z.infer<typeof NameValues>;

/** AuthenticationVariable: one `{name, value}` injected at the start of a procedure. */
export const AuthenticationVariable = z.strictObject({
  name: z.string().min(1).describe('The variable\'s name, used as {{name}} in templates; each name once.'),
  value: z.string().describe('Its value (a string; quote numbers).'),
});
export type AuthenticationVariable = z.infer<typeof AuthenticationVariable>;

/**
 * Variables as a list of `{name, value}` (the spec's User shape) or as a map (curl_sequence's
 * shape); each place accepts both (DESIGN.md).
 */
export const Variables = z.union([z.array(AuthenticationVariable), StringMap]);
export type Variables = z.infer<typeof Variables>;

/** OAuth scopes: a space-separated string as OAuth sends it, or a list joined with spaces. */
export const Scopes = z.union([z.string(), z.array(z.string())]);
export type Scopes = z.infer<typeof Scopes>;

/** A request body: a string, or a JSON value (objects are merged with the user's body). */
export const Body = z.unknown();

/** TokenExtraction: read a value from the exchange into a named variable. */
export const TokenExtraction = z.strictObject({
  location: ExtractionLocation.describe('Where the value is read: header, cookie, body, query, browser_local_storage or browser_session_storage; link (a link of a mail: tech email only).'),
  // May be empty for `query` with a `regex`: the whole URL (configs written for the Python original).
  // Left out only where "the whole" has a meaning: a body, a mail's first link.
  key: z.string().optional().describe('The header, cookie, query parameter or storage item name; for body, a dot path (data.login.token, items.0.id). "": with location query and a regex, the whole URL; with location body, the whole body. For a mail: body needs none, header a name (Subject), link a glob (/verify/** or https://app.test/**), query a parameter of a link.'),
  regex: z.string().optional().describe('An RE2 regex that narrows the value: its group "value", else group 1, else the whole match. No match is an error.'),
  name: z.string().min(1).describe('The variable the value is stored in ({{name}} in later requests, `variable` of an injection).'),
  origin: z.string().min(1).optional().describe('Browser storage locations only: the origin whose storage is read (https://app.example.test); absent: any origin.'),
});
export type TokenExtraction = z.infer<typeof TokenExtraction>;

/**
 * TokenInjection: write a variable into every later authenticated request. `variable` may be left
 * out: the first successful extraction of the procedure is used (spec text; DESIGN.md).
 */
export const TokenInjection = z.strictObject({
  location: ValueLocation.describe('Where the value is written: header, cookie, body, query, browser_local_storage or browser_session_storage.'),
  key: z.string().min(1).describe('The header, cookie, query parameter or storage item name (Authorization); for body, a dot path.'),
  prefix: z.string().optional().describe('Text before the value (Bearer); in a header, one that ends in a letter gets one space ("Bearer <token>").'),
  variable: z.string().min(1).optional().describe('The variable written; absent: the first successful extraction of the procedure.'),
  origin: z.string().min(1).optional().describe('Browser storage locations only, required there: the origin whose pages get the value (https://app.example.test).'),
});
export type TokenInjection = z.infer<typeof TokenInjection>;

/**
 * A cookie of a user's credentials: a name and its value (`value`, or `values` as for headers), and
 * the attributes the vendor's format writes. Without `domain` it goes to every request (as before);
 * with one, only where a browser would send it.
 */
export const CredentialCookie = z.strictObject({
  name: z.string().min(1).describe('The cookie\'s name.'),
  values: z.union([z.string(), z.array(z.string())]).optional().describe('Its values, each sent (a string or a list); instead of `value`.'),
  value: z.string().optional().describe('Its value (URL-encoded once when sent); or `values`.'),
  domain: z.string().min(1).optional().describe('Absent: sent with every request; given: only to this host and its subdomains, as a browser would.'),
  path: z.string().min(1).optional().describe('Only to URLs under this path; default /.'),
  secure: z.boolean().optional().describe('true: only over https; default false.'),
  http_only: z.boolean().optional().describe('true: hidden from the page\'s scripts (browser contexts); default false.'),
  same_site: z.enum(['Strict', 'Lax', 'None']).optional().describe('The browser\'s SameSite rule (browser contexts): Strict, Lax or None; default Lax.'),
});
export type CredentialCookie = z.infer<typeof CredentialCookie>;

/** Credentials: HTTP parameters sent with every request for a user. */
export const Credentials = z.strictObject({
  username: z.string().optional().describe('The user\'s name: {{username}} in its procedure; without a procedure, sent as HTTP Basic with the password.'),
  password: z.string().optional().describe('The user\'s password: {{password}} in its procedure; without one, HTTP Basic. Use "${NAME}" from .env, never the secret itself.'),
  headers: z.array(NameValues).optional().describe('Headers sent with the sign-in requests and every authenticated request: a list of {name, values}.'),
  cookies: z.array(CredentialCookie).optional().describe('Cookies sent with the sign-in requests and every authenticated request (values URL-encoded once).'),
  queryParameters: z.array(NameValues).optional().describe('Query parameters added to every request: a list of {name, values} (or query_parameters; one spelling).'),
  query_parameters: z.array(NameValues).optional().describe('Query parameters added to every request: a list of {name, values} (or queryParameters; one spelling).'),
  body: Body.optional().describe('Any YAML or JSON value merged into request bodies (JSON objects deeply, the credentials winning; see Merge rules).'),
  local_storage: StringMap.optional().describe('localStorage items (a map) every signed-in page of the origins the scope reaches starts with; an item the page already has is kept.'),
  session_storage: StringMap.optional().describe('sessionStorage items (a map) every signed-in page of the origins the scope reaches starts with, written once per window.'),
});
export type Credentials = z.infer<typeof Credentials>;
