import { test, expect } from '@playwright/test';
import { startGraphql, type GraphqlServer } from './graphql.js';
import { postText } from './plain-send.js';

let server: GraphqlServer;
test.beforeAll(async () => {
  server = await startGraphql({ tokenTtl: 2 });
});
test.afterAll(async () => {
  await server?.stop();
});

const LOGIN = 'mutation Login($username: String!, $password: String!) { login(username: $username, password: $password) { token refreshToken expiresIn } }';
const ME = '{ me { username } }';

function graphql(query: string, variables: Record<string, string> = {}, token?: string) {
  return postText(
    server.url,
    { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    JSON.stringify({ query, variables }),
  );
}

interface LoginResult {
  data: { login: { token: string; refreshToken: string; expiresIn: number } };
}

test('login then me: the server sees the user of the token', async () => {
  for (const username of ['alice', 'bob']) {
    const login = await graphql(LOGIN, { username, password: server.users[username] as string });
    expect(login.status).toBe(200);
    expect(login.json).toEqual({ data: { login: { token: expect.any(String), refreshToken: expect.any(String), expiresIn: 2 } } });
    const me = await graphql(ME, {}, (login.json as LoginResult).data.login.token);
    expect(me).toMatchObject({ status: 200, json: { data: { me: { username } } } });
  }
});

test('a wrong password answers HTTP 200 with an errors array', async () => {
  const login = await graphql(LOGIN, { username: 'alice', password: 'wrong' });
  expect(login.status).toBe(200);
  expect(login.json).toEqual({
    data: { login: null },
    errors: [expect.objectContaining({ message: 'Invalid username or password', extensions: { code: 'UNAUTHENTICATED' } })],
  });
});

test('me without a valid token, and after expiry, is an error; refresh gives a working token', async () => {
  expect((await graphql(ME)).json).toMatchObject({ data: { me: null }, errors: [{ message: 'not authenticated' }] });
  const { data } = (await graphql(LOGIN, { username: 'bob', password: server.users.bob as string })).json as LoginResult;
  await new Promise((r) => setTimeout(r, 2_200));
  expect((await graphql(ME, {}, data.login.token)).json).toMatchObject({ errors: [{ message: 'not authenticated' }] });
  const refreshed = await graphql('mutation($r: String!) { refresh(refreshToken: $r) { token } }', { r: data.login.refreshToken });
  const token = (refreshed.json as { data: { refresh: { token: string } } }).data.refresh.token;
  expect((await graphql(ME, {}, token)).json).toEqual({ data: { me: { username: 'bob' } } });
});
