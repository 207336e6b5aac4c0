import { createHash } from 'node:crypto';

/** Hash functions an htdigest line can use. */
export type HtdigestHash = 'md5' | 'sha256';

/**
 * The lines of an htdigest user file: `user:realm:HEX(H(user:realm:password))`, one per user and
 * hash. With `userhash`, a fourth field `HEX(H(user:realm))` that lighttpd matches RFC 7616
 * userhash answers against (Apache reads only three fields, so leave it off there).
 *
 * @example
 * htdigestLines({ alice: 'pw' }, 'realm', ['md5']);
 * // ['alice:realm:<md5 of "alice:realm:pw">']
 */
export function htdigestLines(users: Record<string, string>, realm: string, hashes: HtdigestHash[], userhash = false): string[] {
  const hex = (hash: HtdigestHash, text: string) => createHash(hash).update(text, 'utf8').digest('hex');
  return Object.entries(users).flatMap(([user, password]) =>
    hashes.map((hash) => {
      const line = `${user}:${realm}:${hex(hash, `${user}:${realm}:${password}`)}`;
      return userhash ? `${line}:${hex(hash, `${user}:${realm}`)}` : line;
    }),
  );
}

/** The CGI script protected paths serve: it answers which user the server authenticated. */
export const WHOAMI_CGI = `#!/bin/sh
printf 'Content-Type: application/json\\r\\n\\r\\n{"user":"%s","auth":"%s"}' "$REMOTE_USER" "$AUTH_TYPE"
`;

/** Test users of the digest servers: the passwords have spaces and punctuation on purpose. */
export const DIGEST_USERS: Readonly<Record<string, string>> = { alice: 'Circle of Life', bob: 'b0b: "the builder"' };
