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
  name: z.string().min(1),
  values: z.union([z.string(), z.array(z.string())]),
});
export type NameValues = z.infer<typeof NameValues>;

/** AuthenticationVariable: one `{name, value}` injected at the start of a procedure. */
export const AuthenticationVariable = z.strictObject({
  name: z.string().min(1),
  value: z.string(),
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
  location: ValueLocation,
  /** May be empty for `query` with a `regex`: the whole URL (configs written for the Python original). */
  key: z.string(),
  regex: z.string().optional(),
  name: z.string().min(1),
  /** For the browser storage locations: the origin whose storage is read; absent = any origin. */
  origin: z.string().min(1).optional(),
});
export type TokenExtraction = z.infer<typeof TokenExtraction>;

/**
 * TokenInjection: write a variable into every later authenticated request. `variable` may be left
 * out: the first successful extraction of the procedure is used (spec text; DESIGN.md).
 */
export const TokenInjection = z.strictObject({
  location: ValueLocation,
  key: z.string().min(1),
  prefix: z.string().optional(),
  variable: z.string().min(1).optional(),
  /** For the browser storage locations (required there): the origin whose storage the pages get the value in. */
  origin: z.string().min(1).optional(),
});
export type TokenInjection = z.infer<typeof TokenInjection>;

/**
 * A cookie of a user's credentials: a name and its value (`value`, or `values` as for headers), and
 * the attributes the vendor's format writes. Without `domain` it goes to every request (as before);
 * with one, only where a browser would send it.
 */
export const CredentialCookie = z.strictObject({
  name: z.string().min(1),
  values: z.union([z.string(), z.array(z.string())]).optional(),
  value: z.string().optional(),
  domain: z.string().min(1).optional(),
  path: z.string().min(1).optional(),
  secure: z.boolean().optional(),
  http_only: z.boolean().optional(),
  same_site: z.enum(['Strict', 'Lax', 'None']).optional(),
});
export type CredentialCookie = z.infer<typeof CredentialCookie>;

/** Credentials: HTTP parameters sent with every request for a user. */
export const Credentials = z.strictObject({
  username: z.string().optional(),
  password: z.string().optional(),
  headers: z.array(NameValues).optional(),
  cookies: z.array(CredentialCookie).optional(),
  queryParameters: z.array(NameValues).optional(),
  query_parameters: z.array(NameValues).optional(),
  body: Body.optional(),
  /** localStorage items every signed-in page of the origins the scope reaches starts with (the vendor's `local_storage`). */
  local_storage: StringMap.optional(),
  /** sessionStorage items every signed-in page of the origins the scope reaches starts with (the vendor's `session_storage`). */
  session_storage: StringMap.optional(),
});
export type Credentials = z.infer<typeof Credentials>;
