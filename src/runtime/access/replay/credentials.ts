import type { HeaderPair } from '../../http/observation.js';

/** Headers that are credentials whatever their value: the owner's never travel with another user's request. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['cookie', 'authorization', 'proxy-authorization']);

/** What tells the owner's credentials in a recorded request. */
export interface OwnerCredentials {
  /** Whether a value holds a secret of the owner's (the run's redactor would mask it). */
  isSecret: (value: string) => boolean;
  /** Header names the owner's session sets (lower case): the recorded value is the owner's, whatever it is. */
  headerNames?: ReadonlySet<string>;
  /** Query parameter names the owner's session adds. */
  queryNames?: ReadonlySet<string>;
}

/**
 * A recorded request with the owner's credentials taken out, so that the replaying user's session
 * (applied after, by the sender) is all it carries: every `Cookie` and `Authorization` header, any
 * header or query parameter the owner's session sets, any whose value holds a secret; HTTP/2
 * pseudo-headers too. `carried` says whether anything was taken out: a request that carried no
 * credentials was not the owner's to replay.
 *
 * @example
 * withoutCredentials({ url: 'https://a.test/o?key=s3cr3t&page=2', headers: [['Cookie', 'sid=1'], ['Accept', '*\/*']] }, { isSecret: (v) => v === 's3cr3t' });
 * // { url: 'https://a.test/o?page=2', headers: [['Accept', '*\/*']], carried: true }
 */
export function withoutCredentials(request: { url: string; headers: readonly HeaderPair[] }, owner: OwnerCredentials): { url: string; headers: HeaderPair[]; carried: boolean } {
  let carried = false;
  const headers = request.headers.filter(([name, value]) => {
    const lower = name.toLowerCase();
    if (name.startsWith(':')) return false;
    const credential = CREDENTIAL_HEADERS.has(lower) || owner.headerNames?.has(lower) === true || owner.isSecret(value);
    if (credential) carried = true;
    return !credential;
  });
  let url = request.url;
  let parsed: URL | undefined;
  try {
    parsed = new URL(request.url);
  } catch {
    parsed = undefined;
  }
  if (parsed && parsed.search) {
    const kept = [...parsed.searchParams].filter(([name, value]) => !(owner.queryNames?.has(name) === true || owner.isSecret(value)));
    if (kept.length !== [...parsed.searchParams].length) {
      carried = true;
      parsed.search = new URLSearchParams(kept).toString();
      url = parsed.toString();
    }
  }
  return { url, headers, carried };
}
