import { request } from 'undici';
import { test, expect } from '../support/demo.js';
import { MAX_SIGN_IN_DELAY_MS, SIGN_IN_ROUTES, startDemoServer } from '../../fixtures/demo-server/index.js';
import { routes } from '../../fixtures/demo-server/routes/index.js';
import { idpRoutes } from '../../fixtures/demo-server/routes/login-pages-idp.js';

async function call(method: string, url: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const response = await request(url, { method: method as 'GET', headers: init.headers, body: init.body });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

const json = { 'content-type': 'application/json' };

test('token endpoint: a JWT with exp, a refresh token that works once, and a chosen lifetime', async ({ demo }) => {
  demo.reset();
  const signed = await call('POST', `${demo.url}/auth/token`, { headers: json, body: '{"username":"bob","password":"bob-password","ttl":90}' });
  expect(signed.status).toBe(200);
  const auth = signed.json.data.auth;
  expect(auth.expires_in).toBe(90);
  const claims = JSON.parse(Buffer.from(auth.access_token.split('.')[1], 'base64url').toString());
  expect(claims).toMatchObject({ sub: 'bob', role: 'viewer' });
  expect(claims.exp - claims.iat).toBe(90);

  const renewed = await call('POST', `${demo.url}/auth/refresh?ttl=30`, { headers: json, body: JSON.stringify({ refresh_token: auth.refresh_token }) });
  expect(renewed.json.data.auth.expires_in).toBe(30);
  const reused = await call('POST', `${demo.url}/auth/refresh`, { headers: json, body: JSON.stringify({ refresh_token: auth.refresh_token }) });
  expect(reused.status).toBe(401);
  expect(demo.counters).toEqual({ signIns: { bob: 2 }, endpoints: { 'POST /auth/token': 1, 'POST /auth/refresh': 2 } });
});

test('whoami: 401 without credentials, and says where the credential was found', async ({ demo }) => {
  expect((await call('GET', `${demo.url}/whoami`)).status).toBe(401);
  const basic = `Basic ${Buffer.from('carol:carol-password').toString('base64')}`;
  expect((await call('GET', `${demo.url}/whoami`, { headers: { authorization: basic } })).json).toEqual({ user: 'carol', via: 'basic', role: 'viewer' });
  expect((await call('GET', `${demo.url}/whoami`, { headers: { authorization: 'Basic eDp5' } })).status).toBe(401);
  expect((await call('GET', `${demo.url}/whoami`, { headers: { 'x-api-key': 'ak-alice-7f3c9e21' } })).json).toMatchObject({ user: 'alice', via: 'header' });
  const token = (await call('POST', `${demo.url}/auth/token`, { headers: json, body: '{"username":"alice","password":"alice-password"}' })).json.data.auth.access_token;
  expect((await call('GET', `${demo.url}/whoami?access_token=${token}`)).json).toMatchObject({ user: 'alice', via: 'query' });
  expect((await call('POST', `${demo.url}/whoami`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `access_token=${token}` })).json).toMatchObject({ via: 'body' });
  expect((await call('GET', `${demo.url}/whoami`, { headers: { cookie: `token=${token}` } })).json).toMatchObject({ via: 'cookie' });
  // A token beats Basic: sessions of the http preset carry both.
  expect((await call('GET', `${demo.url}/whoami`, { headers: { cookie: `token=${token}`, authorization: basic } })).json).toMatchObject({ user: 'alice', via: 'cookie' });
  expect((await call('GET', `${demo.url}/whoami`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
});

test('an expired access token is refused', async ({ demo }) => {
  const token = (await call('POST', `${demo.url}/auth/token?ttl=1`, { headers: json, body: '{"username":"alice","password":"alice-password"}' })).json.data.auth.access_token;
  expect((await call('GET', `${demo.url}/whoami`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect((await call('GET', `${demo.url}/whoami`, { headers: { authorization: `Bearer ${token}` } })).json).toMatchObject({ message: 'invalid or expired token' });
});

test('form login sets an HttpOnly sid and redirects to /auth/done with a code', async ({ demo }) => {
  const login = await call('POST', `${demo.url}/auth/form-login`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'username=alice&password=alice-password',
  });
  expect(login.status).toBe(302);
  expect(login.headers.location).toMatch(/^\/auth\/done\?code=code_[0-9a-f]{32}$/);
  const cookie = String(login.headers['set-cookie']);
  expect(cookie).toMatch(/^sid=sid_[0-9a-f]{32}; HttpOnly; Path=\/; SameSite=Lax$/);
  const sid = cookie.split(';')[0] as string;
  expect((await call('GET', `${demo.url}/auth/done`, { headers: { cookie: sid } })).json).toMatchObject({ signedIn: true, user: 'alice' });
  expect((await call('GET', `${demo.url}/whoami`, { headers: { cookie: sid } })).json).toMatchObject({ user: 'alice', via: 'cookie' });
  const wrong = await call('POST', `${demo.url}/auth/form-login`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=alice&password=x' });
  expect(wrong.status).toBe(401);
});

test('admin items: viewers may list but not delete; admins may delete', async ({ demo }) => {
  demo.reset();
  const bob = { 'x-api-key': 'ak-bob-52d0a8b4' };
  const alice = { 'x-api-key': 'ak-alice-7f3c9e21' };
  expect((await call('GET', `${demo.url}/admin/items`, { headers: bob })).json.items).toHaveLength(3);
  expect((await call('DELETE', `${demo.url}/admin/items/2`, { headers: bob })).status).toBe(403);
  expect((await call('DELETE', `${demo.url}/admin/items/2`, { headers: alice })).json).toEqual({ deleted: '2' });
  expect((await call('DELETE', `${demo.url}/admin/items/2`, { headers: alice })).status).toBe(404);
  expect((await call('GET', `${demo.url}/admin/items`)).status).toBe(401);
  await call('POST', `${demo.url}/__reset`);
  expect((await call('GET', `${demo.url}/__counters`)).json).toEqual({ signIns: {}, endpoints: { 'GET /__counters': 1 } });
  expect((await call('GET', `${demo.url}/admin/items`, { headers: bob })).json.items).toHaveLength(3);
});

test('orders: each user lists its own, but any signed-in user reads any order (the replay\'s planted bug); notices are public', async ({ demo }) => {
  const bob = { 'x-api-key': 'ak-bob-52d0a8b4' };
  const alice = { 'x-api-key': 'ak-alice-7f3c9e21' };
  expect((await call('GET', `${demo.url}/api/orders`, { headers: alice })).json).toEqual({ orders: [{ id: '1001', total: 10 }] });
  expect((await call('GET', `${demo.url}/api/orders`, { headers: bob })).json).toEqual({ orders: [{ id: '1002', total: 20 }] });
  expect((await call('GET', `${demo.url}/api/orders`)).status).toBe(401);
  // Broken object-level authorization: bob reads alice's order; anonymous is refused.
  const asAlice = await call('GET', `${demo.url}/api/orders/1001`, { headers: alice });
  const asBob = await call('GET', `${demo.url}/api/orders/1001`, { headers: bob });
  expect(asBob.status).toBe(200);
  expect({ ...asBob.json, request_id: 0 }).toEqual({ ...asAlice.json, request_id: 0 });
  expect(asAlice.json).toMatchObject({ id: '1001', owner: 'alice' });
  expect((await call('GET', `${demo.url}/api/orders/1001`)).status).toBe(401);
  expect((await call('GET', `${demo.url}/api/orders/9999`, { headers: bob })).status).toBe(404);
  const notices = await call('GET', `${demo.url}/api/notices`);
  expect(notices.status).toBe(200);
  expect(notices.json.notices).toHaveLength(1);
});

test('query and body logins', async ({ demo }) => {
  const query = await call('POST', `${demo.url}/auth/query-login?username=carol&password=carol-password`);
  expect(query.json).toMatchObject({ expires_in: 3600 });
  const body = await call('POST', `${demo.url}/auth/body-login`, { headers: json, body: '{"user":"carol","pass":"carol-password"}' });
  expect(body.headers['x-auth-token']).toBe(body.json.token);
  expect((await call('POST', `${demo.url}/auth/query-login?username=carol&password=nope`)).status).toBe(401);
  expect((await call('GET', `${demo.url}/nowhere`)).status).toBe(404);
});

test('a sign-in delay holds every sign-in route back, and nothing else', async () => {
  // Every key of the table names a real route (a typo would leave a sign-in undelayed).
  const keys = new Set([...routes, ...idpRoutes].map((r) => `${r.method} ${r.path}`));
  expect([...SIGN_IN_ROUTES].filter((key) => !keys.has(key))).toEqual([]);
  for (const bad of [-1, 1.5, Number.NaN, MAX_SIGN_IN_DELAY_MS + 1]) {
    await expect(startDemoServer({ signInDelayMs: bad })).rejects.toThrow(/sign-in delay must be an integer from 0 to 60000 ms/);
  }

  const slow = await startDemoServer({ signInDelayMs: 300 });
  try {
    const started = performance.now();
    const signed = await call('POST', `${slow.url}/auth/token`, { headers: json, body: '{"username":"bob","password":"bob-password"}' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    expect(signed.status).toBe(200);
    expect(slow.counters.signIns).toEqual({ bob: 1 });
  } finally {
    await slow.stop();
  }

  // With a delay no test would wait out, the API still answers while a sign-in is held back.
  const stuck = await startDemoServer({ signInDelayMs: MAX_SIGN_IN_DELAY_MS });
  try {
    let answered = false;
    const pending = call('POST', `${stuck.url}/login`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=bob&password=bob-password' })
      .then(() => (answered = true), () => undefined);
    expect((await call('GET', `${stuck.url}/whoami`, { headers: { 'x-api-key': 'ak-bob-52d0a8b4' } })).json).toMatchObject({ user: 'bob' });
    const form = await request(`${stuck.url}/login`);
    await form.body.dump();
    expect(form.statusCode).toBe(200);
    expect(answered).toBe(false);
    expect(stuck.counters.signIns).toEqual({});
    await stuck.stop();
    await pending;
  } finally {
    await stuck.stop().catch(() => undefined);
  }
});
