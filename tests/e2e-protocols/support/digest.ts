import { expect } from '@playwright/test';
import { applySession } from '../../../src/runtime/session/apply.js';
import { answerChallenge, formatNonceCount, sendWithDigest } from '../../../src/runtime/protocols/digest/index.js';
import { headerValues, withAuthorization } from '../../../src/runtime/protocols/digest/answer.js';
import type { DigestSessionState, Session } from '../../../src/runtime/session/session.js';
import { plainSend } from '../../support/servers/plain-send.js';
import type { Relay } from './relay.js';
import { yamlString } from './sign-in.js';

/** What a digest session must have answered with. */
export interface DigestExpectation {
  algorithm: string;
  /** `auth`, or undefined for an RFC 2069 answer (no qop, nc, cnonce). */
  qop?: 'auth';
}

/**
 * A config with one `digest` preset user and one generic user whose procedure is a `tech: digest`
 * operation (its second request adds `?answer=1` and reads the server's `user` into `seen_user`),
 * both protected by `url`.
 *
 * @example
 * planFromYaml(digestConfig(url, { alice: 'pw' }, { bob: 'pw2' }));
 */
export function digestConfig(url: string, presetUser: [string, string], procedureUser: [string, string]): string {
  return `
presets:
  - type: digest
    first_request: { url: ${yamlString(url)}, method: GET }
    users:
      - { username: ${presetUser[0]}, password: ${yamlString(presetUser[1])} }
procedures:
  - name: digest-sign-in
    operations:
      - tech: digest
        parameters:
          first_request: { url: ${yamlString(url)}, method: GET }
          second_request: { url: ${yamlString(`${url}?answer=1`)} }
        extractions:
          - { name: seen_user, location: body, key: user }
    injections: []
users:
  - name: ${procedureUser[0]}
    procedure: digest-sign-in
    credentials: { username: ${procedureUser[0]}, password: ${yamlString(procedureUser[1])} }
`;
}

/**
 * Proves that a signed-in digest session keeps working against the real server at `url` (which
 * answers `{"user","auth"}`): two later requests answered pre-emptively (the known nonce, nonce
 * counts 2 and 3, no 401 drawn), a 401 to a plain request answered with `answerChallenge` (nonce
 * count 1), and a nonce the server never issued answered by `sendWithDigest` after the 401 it
 * draws. Every answer must be accepted as `user`.
 *
 * @example
 * await expectDigestSessionWorks(session, url, 'alice', { algorithm: 'MD5', qop: 'auth' });
 */
export async function expectDigestSessionWorks(session: Session, url: string, user: string, expected: DigestExpectation): Promise<void> {
  const seen = { user, auth: 'Digest' };
  const signedIn = session.digest as DigestSessionState;
  expect(signedIn).toMatchObject({ username: user, algorithm: expected.algorithm, nc: 1, origin: new URL(url).origin });
  expect(signedIn.qop).toBe(expected.qop);
  // The session carries no credentials of its own: the digest answer is per request.
  expect(Object.keys(session.headers).filter((n) => n.toLowerCase() === 'authorization')).toEqual([]);

  let state = signedIn;
  for (const nc of [2, 3]) {
    const request = applySession(session, { method: 'GET', url: `${url}?call=${nc}`, headers: [] });
    const { observation, state: next } = await sendWithDigest(state, request, plainSend);
    expect(observation.responses.map((r) => r.status), `pre-emptive answer with nc ${nc}`).toEqual([200]);
    expect(JSON.parse(observation.responses[0]?.body ?? '')).toEqual(seen);
    const authorization = headerValues(observation.requests[0]?.headers ?? [], 'authorization')[0] ?? '';
    expect(authorization).toContain(`algorithm=${expected.algorithm},`);
    expect(authorization).toContain(`nonce="${signedIn.nonce}"`);
    if (expected.qop) expect(authorization).toContain(`nc=${formatNonceCount(nc)}`);
    else expect(authorization).not.toMatch(/\b(nc|qop)=/);
    expect(next).toMatchObject({ nonce: signedIn.nonce, nc });
    state = next;
  }

  const plain = applySession(session, { method: 'GET', url, headers: [] });
  const challenged = await plainSend(plain);
  expect(challenged.responses[0]?.status).toBe(401);
  const fresh = answerChallenge(state, plain, headerValues(challenged.responses[0]?.headers ?? [], 'www-authenticate'));
  expect(fresh?.state).toMatchObject({ nc: 1, algorithm: expected.algorithm });
  const answered = await plainSend({ ...plain, headers: withAuthorization(plain.headers, fresh?.authorization ?? '') });
  expect(answered.responses[0]?.status, 'answer to a fresh 401').toBe(200);
  expect(JSON.parse(answered.responses[0]?.body ?? '')).toEqual(seen);

  const forged = { ...state, nonce: 'a-nonce-this-server-never-issued' };
  const retried = await sendWithDigest(forged, applySession(session, { method: 'GET', url, headers: [] }), plainSend);
  expect(retried.observation.responses.map((r) => r.status), 'unknown nonce: 401, then the fresh challenge answered').toEqual([401, 200]);
  expect(JSON.parse(retried.observation.responses[1]?.body ?? '')).toEqual(seen);
  expect(retried.state.nc).toBe(1);
  expect(retried.state.nonce).not.toBe(forged.nonce);
}

/**
 * Asserts that the relay saw one sign-in from exchange `from` on: the challenge drawn without any
 * credentials (no HTTP Basic either), then the answer to `answerPath` as `user` with `algorithm`.
 *
 * @example
 * expectSignInExchanges(relay, 0, 'alice', '/md5/whoami.sh', 'MD5');
 */
export function expectSignInExchanges(relay: Relay, from: number, user: string, answerPath: string, algorithm: string): void {
  const [first, second, ...more] = relay.exchanges.slice(from);
  expect(more).toEqual([]);
  expect(first).toMatchObject({ method: 'GET', status: 401 });
  expect(first?.headers.authorization).toBeUndefined();
  expect(second).toMatchObject({ method: 'GET', path: answerPath, status: 200 });
  expect(second?.headers.authorization).toMatch(new RegExp(`^Digest username="${user}", .*algorithm=${algorithm},`));
}
