import { request } from 'undici';
import { chooseChallenge, parseDigestChallenges, type DigestChallenge } from '../../src/runtime/protocols/digest/challenge.js';
import { digestAuthorization, newCnonce } from '../../src/runtime/protocols/digest/response.js';

/** What one challenge-and-answer round against a real server gave. */
export interface DigestRound {
  challenge: DigestChallenge;
  status: number;
  body: string;
}

/**
 * Asks `url` without credentials, answers the chosen Digest challenge (after `tweak`) with
 * {@link digestAuthorization}, and returns the answer's status and body; plain undici, no runner.
 *
 * @example
 * const round = await digestRound(server.url + server.paths.md5, 'alice', password);
 * round.status; // 200
 */
export async function digestRound(
  url: string,
  username: string,
  password: string,
  tweak: (c: DigestChallenge) => DigestChallenge = (c) => c,
): Promise<DigestRound> {
  const first = await request(url);
  await first.body.dump();
  if (first.statusCode !== 401) throw new Error(`expected 401, got ${first.statusCode}`);
  const header = first.headers['www-authenticate'];
  const challenge = tweak(chooseChallenge(parseDigestChallenges(Array.isArray(header) ? header : [header ?? ''])));
  const authorization = digestAuthorization({
    challenge, username, password, method: 'GET', uri: new URL(url).pathname, nc: 1, cnonce: newCnonce(),
  });
  const second = await request(url, { headers: { authorization } });
  return { challenge, status: second.statusCode, body: await second.body.text() };
}
