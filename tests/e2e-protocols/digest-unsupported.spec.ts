import { test, expect } from '@playwright/test';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { expectNoSecrets, planFromYaml, signInFailure } from './support/sign-in.js';

/** A server whose only challenge is `algorithm=SHA-512`, which no digest client answers. */
let server: RunningServer;
let answered = 0;
test.beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    if (req.headers.authorization) answered++;
    res.writeHead(401, { 'www-authenticate': 'Digest realm="vault", nonce="bm9uY2U", algorithm=SHA-512, qop="auth"' }).end();
  });
});
test.afterAll(async () => {
  await server?.close();
});

test('an unknown algorithm is DIGEST_UNSUPPORTED naming it, and nothing is sent in answer', async () => {
  const password = 'sha512-only-password';
  const plan = planFromYaml(`
presets:
  - type: digest
    first_request: { url: "${server.url}/vault", method: GET }
    users: [{ username: alice, password: ${password} }]
`);
  const redactor = new Redactor();
  const error = await signInFailure(authenticate(plan, 'alice', { redactor }));
  expect(error.code).toBe('DIGEST_UNSUPPORTED');
  expect(error.message).toBe('no Digest challenge this client can answer: the server offered algorithm SHA-512 with qop auth');
  expect(error.details).toEqual(['challenge 1: algorithm SHA-512 is not supported']);
  expect(error.context).toMatchObject({ user: 'alice', status: 401, url: `${server.url}/vault` });
  expect(expectNoSecrets(error, redactor, [password])).toContain('offer algorithm SHA-256, SHA-256-sess, MD5, MD5-sess with qop "auth"');
  expect(answered).toBe(0);
});
