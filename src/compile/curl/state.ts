/**
 * One piece of request data in the order given: `-d`/`--data-*` text as curl sends it, a
 * `--data-urlencode` piece (with its name and unencoded content, so that a `{{var}}` in it can be
 * encoded after templating), or a `--json` piece.
 */
export interface DataPiece {
  kind: 'data' | 'urlencode' | 'json';
  /** The text curl appends to the body (already encoded for `urlencode`). */
  text: string;
  /** `urlencode` only: the name before `=`, absent for `=content` and `content`. */
  name?: string;
  /** `urlencode` only: the content before encoding. */
  content?: string;
}

/** A `-H` argument: a header to send, or `Name:` (no value), which removes curl's own header. */
export type CustomHeader = { name: string; value: string } | { name: string; remove: true };

/**
 * What the options of one curl command asked for, before curl's rules turn it into a request
 * (method from data and `-G`, default content type, which headers a custom `-H` replaces...).
 * The option table's handlers fill it; `buildRequest` reads it.
 */
export interface CurlState {
  /** Positional arguments and `--url` values, in order. */
  urls: string[];
  /** `-X`, upper-cased. */
  method?: string;
  /** `-G`: data goes to the query string. */
  get: boolean;
  headers: CustomHeader[];
  data: DataPiece[];
  /** `-b` strings (name=value pairs), joined into one `Cookie` header. */
  cookies: string[];
  /** `-u user:password`. */
  user?: string;
  /** `--oauth2-bearer`. */
  bearer?: string;
  userAgent?: string;
  referer?: string;
  proxy?: string;
  insecure: boolean;
  location: boolean;
  maxRedirs?: number;
  compressed: boolean;
  /** `-m`, seconds as given (may be fractional). */
  maxTime?: number;
  /** `--connect-timeout`, seconds as given. */
  connectTimeout?: number;
}

/**
 * A fresh state: nothing asked for yet.
 *
 * @example
 * const state = emptyCurlState(); // { urls: [], get: false, headers: [], ... }
 */
export function emptyCurlState(): CurlState {
  return { urls: [], get: false, headers: [], data: [], cookies: [], insecure: false, location: false, compressed: false };
}
