import { test, expect } from '@playwright/test';
import { startLighttpd, type LighttpdServer } from './lighttpd.js';
import { digestRound } from '../digest-answer.js';

let server: LighttpdServer;
test.beforeAll(async () => {
  server = await startLighttpd();
});
test.afterAll(async () => {
  await server?.stop();
});

const whoami = (user: string) => JSON.stringify({ user, auth: 'Digest' });

test('MD5 with qop auth: the server authenticates alice', async () => {
  const round = await digestRound(server.url + server.paths.md5, 'alice', server.users.alice as string);
  expect(round.challenge).toMatchObject({ algorithm: 'MD5', qop: 'auth', realm: server.realm });
  expect(round.status).toBe(200);
  expect(round.body).toBe(whoami('alice'));
});

test('SHA-256 with qop auth: the server authenticates bob', async () => {
  const round = await digestRound(server.url + server.paths.sha256, 'bob', server.users.bob as string);
  expect(round.challenge.algorithm).toBe('SHA-256');
  expect(round.status).toBe(200);
  expect(round.body).toBe(whoami('bob'));
});

test('offered MD5 and SHA-256, the client answers SHA-256 and it is accepted', async () => {
  const round = await digestRound(server.url + server.paths.both, 'alice', server.users.alice as string);
  expect(round.challenge.algorithm).toBe('SHA-256');
  expect(round.status).toBe(200);
});

test('MD5-sess and SHA-256-sess answers are accepted', async () => {
  for (const [path, algorithm] of [[server.paths.md5, 'MD5-sess'], [server.paths.sha256, 'SHA-256-sess']] as const) {
    const round = await digestRound(server.url + path, 'alice', server.users.alice as string, (c) => ({ ...c, algorithm }));
    expect(round.status, algorithm).toBe(200);
    expect(round.body).toBe(whoami('alice'));
  }
});

test('an RFC 2069 answer (no qop, nc or cnonce) is accepted', async () => {
  const round = await digestRound(server.url + server.paths.md5, 'bob', server.users.bob as string, ({ qop: _qop, ...c }) => c);
  expect(round.status).toBe(200);
  expect(round.body).toBe(whoami('bob'));
});

test('userhash=true: the hashed username is accepted', async () => {
  const round = await digestRound(server.url + server.paths.userhash, 'bob', server.users.bob as string);
  expect(round.challenge).toMatchObject({ algorithm: 'SHA-256', userhash: true });
  expect(round.status).toBe(200);
  expect(round.body).toBe(whoami('bob'));
});

test('a wrong password, or a right one for another user, gets 401', async () => {
  expect((await digestRound(server.url + server.paths.md5, 'alice', 'wrong')).status).toBe(401);
  expect((await digestRound(server.url + server.paths.sha256, 'alice', server.users.bob as string)).status).toBe(401);
});

test('the open path answers without credentials and the basic path offers Basic', async () => {
  expect((await fetch(server.url + server.paths.open)).status).toBe(200);
  const basic = await fetch(server.url + server.paths.basic);
  expect(basic.status).toBe(401);
  expect(basic.headers.get('www-authenticate')).toMatch(/^Basic /);
});
