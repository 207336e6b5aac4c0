import { test, expect } from '@playwright/test';
import { startApache, type ApacheServer } from './apache.js';
import { digestRound } from '../digest-answer.js';

let server: ApacheServer;
test.beforeAll(async () => {
  server = await startApache();
});
test.afterAll(async () => {
  await server?.stop();
});

test('MD5 with qop auth: Apache authenticates alice and bob', async () => {
  for (const user of ['alice', 'bob']) {
    const round = await digestRound(server.url + server.paths.md5, user, server.users[user] as string);
    expect(round.challenge).toMatchObject({ algorithm: 'MD5', qop: 'auth', realm: server.realm, domain: '/md5/' });
    expect(round.status).toBe(200);
    expect(round.body).toBe(JSON.stringify({ user, auth: 'Digest' }));
  }
});

test('a wrong password gets 401', async () => {
  const round = await digestRound(server.url + server.paths.md5, 'alice', 'not the password');
  expect(round.status).toBe(401);
});

test('Apache refuses an answer with another algorithm than it offered', async () => {
  const round = await digestRound(server.url + server.paths.md5, 'alice', server.users.alice as string, (c) => ({ ...c, algorithm: 'MD5-sess' }));
  expect(round.status).toBe(401);
});
