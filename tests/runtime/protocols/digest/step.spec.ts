import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../../src/core/errors.js';
import { runDigestStep, sendWithDigest } from '../../../../src/runtime/protocols/digest/step.js';
import type { ResolvedRequest } from '../../../../src/runtime/http/types.js';
import type { Observation } from '../../../../src/runtime/http/observation.js';
import { startApache, type ApacheServer } from '../../../support/servers/apache.js';
import { startLighttpd, type LighttpdServer } from '../../../support/servers/lighttpd.js';
import { plainSend } from '../../../support/servers/plain-send.js';

let lighttpd: LighttpdServer;
let apache: ApacheServer;
test.beforeAll(async () => {
  [lighttpd, apache] = await Promise.all([startLighttpd(), startApache()]);
});
test.afterAll(async () => {
  await Promise.all([lighttpd?.stop(), apache?.stop()]);
});

const where = { user: 'alice', procedure: 'digest-users', step: 0 };
const get = (url: string): ResolvedRequest => ({ method: 'GET', url, headers: [['Accept', 'application/json']] });
const authorizationOf = (o: Observation, i: number) =>
  o.requests[i]?.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1];

async function stepError(first: string, password: string): Promise<MultiAuthError> {
  try {
    await runDigestStep({ first: get(first), second: get(first), username: 'alice', password, send: plainSend, where });
  } catch (error) {
    if (error instanceof MultiAuthError) return error;
    throw error;
  }
  throw new Error('runDigestStep did not fail');
}

test('lighttpd offering MD5 and SHA-256: SHA-256 answer, both exchanges observed, state kept', async () => {
  const url = lighttpd.url + lighttpd.paths.both;
  const { observation, state } = await runDigestStep({
    first: get(url), second: get(url), username: 'alice', password: lighttpd.users.alice as string, send: plainSend, where,
  });
  expect(observation.responses.map((r) => r.status)).toEqual([401, 200]);
  expect(observation.responses[1]?.body).toBe('{"user":"alice","auth":"Digest"}');
  expect(authorizationOf(observation, 0)).toBeUndefined();
  expect(authorizationOf(observation, 1)).toMatch(/^Digest username="alice", realm="multiauth lighttpd", uri="\/both\/whoami.sh", algorithm=SHA-256, /);
  expect(observation.requests[1]?.headers).toContainEqual(['Accept', 'application/json']);
  expect(state).toMatchObject({
    username: 'alice', realm: lighttpd.realm, algorithm: 'SHA-256', qop: 'auth', nc: 1, origin: lighttpd.url,
  });
  expect(state.nonce).toMatch(/^[0-9a-f]+:[0-9a-f]{64}$/);
});

test('Apache MD5: bob signs in', async () => {
  const url = apache.url + apache.paths.md5;
  const { observation, state } = await runDigestStep({
    first: get(url), second: get(url), username: 'bob', password: apache.users.bob as string, send: plainSend, where,
  });
  expect(observation.responses.at(-1)?.body).toBe('{"user":"bob","auth":"Digest"}');
  expect(state).toMatchObject({ username: 'bob', algorithm: 'MD5', qop: 'auth', nc: 1, origin: apache.url });
});

test('the second request may differ: its own method, path and query are signed', async () => {
  const second: ResolvedRequest = { method: 'POST', url: `${lighttpd.url}${lighttpd.paths.md5}?next=%2Fhome&x=1`, headers: [], body: 'a=1' };
  const { observation } = await runDigestStep({
    first: get(lighttpd.url + lighttpd.paths.md5), second, username: 'bob', password: lighttpd.users.bob as string, send: plainSend, where,
  });
  expect(observation.responses.at(-1)?.status).toBe(200);
  expect(authorizationOf(observation, 1)).toContain('uri="/md5/whoami.sh?next=%2Fhome&x=1"');
  expect(observation.requests[1]?.method).toBe('POST');
});

test('a stale nonce (401 stale=true) is answered once more with the new nonce', async () => {
  const url = lighttpd.url + lighttpd.paths.sha256;
  let answers = 0;
  const send = (req: ResolvedRequest) => {
    const auth = req.headers.find(([n]) => n === 'Authorization');
    if (!auth || answers++ > 0) return plainSend(req);
    // An expired lighttpd nonce: its timestamp part (hex seconds) set to 1970.
    const old = auth[1].replace(/nonce="[0-9a-f]+:/, 'nonce="00000001:');
    return plainSend({ ...req, headers: req.headers.map((h) => (h === auth ? ['Authorization', old] : h)) });
  };
  const { observation, state } = await runDigestStep({
    first: get(url), second: get(url), username: 'alice', password: lighttpd.users.alice as string, send, where,
  });
  expect(observation.responses.map((r) => r.status)).toEqual([401, 401, 200]);
  expect(observation.responses[1]?.headers.find(([n]) => n === 'www-authenticate')?.[1]).toContain('stale=true');
  expect(state.nc).toBe(1);
});

test('a wrong password: AUTH_HTTP_STATUS naming the realm, never the password', async () => {
  const error = await stepError(lighttpd.url + lighttpd.paths.md5, 'wrong-password-123');
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toBe('the server rejected the digest answer (HTTP 401)');
  expect(error.context).toMatchObject({ ...where, stepKind: 'digest', method: 'GET', status: 401 });
  expect(error.hint).toContain('realm "multiauth lighttpd"');
  expect(error.render()).not.toContain('wrong-password-123');
});

test('a first request that is not challenged: AUTH_PROTOCOL "expected a 401 digest challenge, got 200"', async () => {
  const error = await stepError(lighttpd.url + lighttpd.paths.open, 'x');
  expect(error.code).toBe('AUTH_PROTOCOL');
  expect(error.message).toBe('expected a 401 digest challenge, got 200');
  expect(error.context).toMatchObject({ status: 200, url: lighttpd.url + lighttpd.paths.open });
  expect(error.hint).toContain('first_request');
});

test('a server asking for Basic: DIGEST_UNSUPPORTED pointing to the basic preset', async () => {
  const error = await stepError(lighttpd.url + lighttpd.paths.basic, 'x');
  expect(error.code).toBe('DIGEST_UNSUPPORTED');
  expect(error.message).toBe('the server answered 401 without a Digest challenge (it offers Basic)');
  expect(error.hint).toContain('`basic` preset');
});

test('later requests: pre-emptive answer with the next nonce count, one exchange', async () => {
  for (const [server, path] of [[lighttpd, lighttpd.paths.md5], [apache, apache.paths.md5]] as const) {
    const url = server.url + path;
    const signedIn = await runDigestStep({
      first: get(url), second: get(url), username: 'alice', password: server.users.alice as string, send: plainSend, where,
    });
    const next = await sendWithDigest(signedIn.state, get(url), plainSend);
    expect(next.observation.responses.map((r) => r.status), server.url).toEqual([200]);
    expect(authorizationOf(next.observation, 0)).toContain('nc=00000002');
    expect(next.state).toMatchObject({ nonce: signedIn.state.nonce, nc: 2 });
    const third = await sendWithDigest(next.state, get(url), plainSend);
    expect(third.observation.responses.map((r) => r.status)).toEqual([200]);
    expect(third.state.nc).toBe(3);
  }
});

test('later requests: an unknown nonce draws a 401 that is answered afresh', async () => {
  const url = lighttpd.url + lighttpd.paths.sha256;
  const state = { username: 'bob', password: lighttpd.users.bob as string, realm: lighttpd.realm, nonce: 'made-up', algorithm: 'SHA-256', qop: 'auth', nc: 4, origin: lighttpd.url };
  const { observation, state: after } = await sendWithDigest(state, get(url), plainSend);
  expect(observation.responses.map((r) => r.status)).toEqual([401, 200]);
  expect(observation.responses[1]?.body).toBe('{"user":"bob","auth":"Digest"}');
  expect(after.nc).toBe(1);
  expect(after.nonce).not.toBe('made-up');
});

test('later requests to another origin: nothing sent pre-emptively, that server\'s challenge answered', async () => {
  const signedIn = await runDigestStep({
    first: get(lighttpd.url + lighttpd.paths.md5), second: get(lighttpd.url + lighttpd.paths.md5),
    username: 'alice', password: lighttpd.users.alice as string, send: plainSend, where,
  });
  const { observation, state } = await sendWithDigest(signedIn.state, get(apache.url + apache.paths.md5), plainSend);
  expect(authorizationOf(observation, 0)).toBeUndefined();
  expect(observation.responses.map((r) => r.status)).toEqual([401, 200]);
  expect(state).toMatchObject({ origin: apache.url, realm: apache.realm, nc: 1 });
});
