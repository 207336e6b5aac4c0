import { request } from 'undici';
import { expect, test } from './support.js';

type Reply = { status: number; location?: string; cookies: string[]; text: string };

async function call(url: string, init: { method?: string; cookie?: string; form?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (init.cookie) headers.cookie = init.cookie;
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await request(url, {
    method: (init.method ?? (init.form ? 'POST' : 'GET')) as 'GET',
    headers,
    body: init.form ? new URLSearchParams(init.form).toString() : undefined,
  });
  const setCookie = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    location: response.headers.location as string | undefined,
    cookies: setCookie === undefined ? [] : [setCookie].flat(),
    text: await response.body.text(),
  };
}

/** The form's hidden fields and the cookie (`name=value`) its CSRF token is tied to. */
function formOf(reply: Reply): { fields: Record<string, string>; cookie: string } {
  const fields = Object.fromEntries([...reply.text.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  return { fields, cookie: (reply.cookies[0] ?? '').split(';')[0] ?? '' };
}

test('/login: a CSRF token tied to a cookie; forged or missing tokens are refused before the password is checked', async ({ demo }) => {
  const page = await call(`${demo.url}/login`);
  expect(page.status).toBe(200);
  expect(page.cookies[0]).toMatch(/^login_csrf=[0-9a-f]{32}; HttpOnly; Path=\/login; SameSite=Lax$/);
  const { fields, cookie } = formOf(page);
  expect(fields.csrf_token).toMatch(/^[\w-]{43}$/);

  const credentials = { username: 'alice', password: 'alice-password', next: '/app' };
  expect((await call(`${demo.url}/login`, { form: credentials, cookie })).status).toBe(403);
  expect((await call(`${demo.url}/login`, { form: { ...credentials, csrf_token: fields.csrf_token ?? '' } })).status).toBe(403);
  const other = formOf(await call(`${demo.url}/login`));
  expect((await call(`${demo.url}/login`, { form: { ...credentials, csrf_token: other.fields.csrf_token ?? '' }, cookie })).status).toBe(403);

  const wrong = await call(`${demo.url}/login`, { form: { ...fields, username: 'alice', password: 'guess-123' }, cookie });
  expect(wrong.status).toBe(401);
  expect(wrong.text).toContain('<p id="error" role="alert">Wrong username or password.</p>');
  expect(wrong.text).toContain('value="alice"');
  expect(wrong.text).not.toContain('guess-123');

  const signedIn = await call(`${demo.url}/login`, { form: { ...fields, username: 'alice', password: 'alice-password', next: '//evil.test/' }, cookie });
  expect(signedIn.status).toBe(303);
  expect(signedIn.location).toBe('/app');
  const sid = /^sid=(sid_[0-9a-f]{32}); HttpOnly; Path=\/; SameSite=Lax$/.exec(signedIn.cookies[0] ?? '')?.[1] ?? '';
  expect(demo.state.sessions.get(sid)).toBe('alice');
  const app = await call(`${demo.url}/app`, { cookie: `sid=${sid}` });
  expect(app.status).toBe(200);
  expect(app.text).toContain("localStorage.setItem(key, token)");
  const token = JSON.parse((await call(`${demo.url}/app/token`, { method: 'POST', cookie: `sid=${sid}` })).text) as { access_token: string };
  const me = await call(`${demo.url}/whoami`, { cookie: 'sid=unknown' });
  expect(me.status).toBe(401);
  const byToken = await request(`${demo.url}/whoami`, { headers: { authorization: `Bearer ${token.access_token}` } });
  expect(await byToken.body.json()).toEqual({ user: 'alice', via: 'header', role: 'admin' });
});

test('/app and /app/token need a session', async ({ demo }) => {
  const app = await call(`${demo.url}/app`);
  expect(app.status).toBe(303);
  expect(app.location).toBe('/login?next=%2Fapp');
  expect((await call(`${demo.url}/app/token`, { method: 'POST' })).status).toBe(401);
});

test('the identity provider: registered redirect URIs only, a code bound to its client, used once', async ({ demo }) => {
  const start = await call(`${demo.url}/sso/start?client_id=demo-cli`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.location ?? '');
  expect(authorize.origin).toBe(demo.idpUrl);
  expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
    response_type: 'code', client_id: 'demo-cli', redirect_uri: `${demo.url}/sso/cli/callback`,
  });

  const forged = new URL(authorize);
  forged.searchParams.set('redirect_uri', 'http://127.0.0.1:1/steal');
  const refused = await call(forged.href);
  expect(refused.status).toBe(400);
  expect(refused.location).toBeUndefined();
  expect(refused.text).toContain('redirect_uri is not registered for this client.');

  const page = await call(authorize.href);
  expect(page.status).toBe(200);
  expect(page.text).toContain('id="idp-username"');
  const { fields, cookie } = formOf(page);
  expect(cookie).toMatch(/^idp_csrf=/);
  const wrong = await call(`${demo.idpUrl}/authorize`, { form: { ...fields, username: 'bob', password: 'nope-nope' }, cookie });
  expect(wrong.status).toBe(401);
  const back = await call(`${demo.idpUrl}/authorize`, { form: { ...fields, username: 'bob', password: 'bob-password' }, cookie });
  expect(back.status).toBe(302);
  const callback = new URL(back.location ?? '');
  expect(`${callback.origin}${callback.pathname}`).toBe(`${demo.url}/sso/cli/callback`);
  expect(callback.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
  const code = callback.searchParams.get('code') ?? '';

  const shown = await call(callback.href);
  expect(shown.text).toContain(`<code id="code"`);
  const exchange = (form: Record<string, string>) => call(`${demo.url}/oauth/token`, { form: { grant_type: 'authorization_code', code, ...form } });
  expect(JSON.parse((await exchange({ client_id: 'demo-web' })).text)).toMatchObject({ error: 'invalid_grant' });
  // A refused attempt used the code up, as a replayed code must be.
  expect((await exchange({})).status).toBe(400);
  expect(JSON.parse((await call(`${demo.url}/oauth/token`, { form: { grant_type: 'implicit' } })).text)).toMatchObject({ error: 'unsupported_grant_type' });
  // The password grant is for the confidential client only.
  expect(JSON.parse((await call(`${demo.url}/oauth/token`, { form: { grant_type: 'password', username: 'alice', password: 'alice-password' } })).text)).toMatchObject({ error: 'invalid_client' });
});

test('the web client: /sso/callback checks state against its cookie, exchanges the code itself and opens a session', async ({ demo }) => {
  const start = await call(`${demo.url}/sso/start`);
  const stateCookie = (start.cookies[0] ?? '').split(';')[0] ?? '';
  expect(stateCookie).toMatch(/^sso_state=st_[0-9a-f]{32}$/);
  const page = await call(start.location ?? '');
  const { fields, cookie } = formOf(page);
  const back = await call(`${demo.idpUrl}/authorize`, { form: { ...fields, username: 'carol', password: 'carol-password' }, cookie });
  const callback = back.location ?? '';
  expect(callback.startsWith(`${demo.url}/sso/callback?code=code_`)).toBe(true);

  expect((await call(callback, { cookie: 'sso_state=st_other' })).status).toBe(400);
  const done = await call(callback, { cookie: stateCookie });
  expect(done.status).toBe(303);
  expect(done.location).toBe('/app');
  const sid = /^sid=([^;]+)/.exec(done.cookies[0] ?? '')?.[1] ?? '';
  expect(demo.state.sessions.get(sid)).toBe('carol');
  expect(done.cookies[1]).toBe('sso_state=; Max-Age=0; Path=/sso');
  expect((await call(callback, { cookie: stateCookie })).text).toContain('The authorization code is unknown, used or expired.');
});
