import type { PlanExtraction } from '../../../../src/compile/plan.js';
import { browserStartUrl, prepareContext } from '../../../../src/runtime/protocols/browser/prepare.js';
import { extract } from '../../../../src/runtime/engine/extract/index.js';
import { FIXTURE_PASSWORD } from '../../../../fixtures/browser-pages/server.js';
import { c, expect, op, run, test } from './support.js';

const signIn = (url: string) =>
  op([
    c('open', `${url}/form.html`),
    c('type', 'id=username', '{{username}}'),
    c('type', 'id=password', '{{password}}'),
    c('click', 'css=button[type=submit]'),
    c('wait', 'request_url_contains=/api/me', '10'),
    c('waitForText', 'id=me', 'user alice'),
  ]);

const extraction = (location: PlanExtraction['location'], key: string, regex?: string): PlanExtraction => ({
  name: key, location, key, origin: [], ...(regex ? { regex } : {}),
});

test('the observation holds requests, responses, bodies, URLs, cookies and localStorage of the sign-in', async ({ context, pages }) => {
  const { observation, storage } = await run(context, signIn(pages.url), { username: 'alice', password: FIXTURE_PASSWORD });

  const api = observation.requests.find((r) => r.url === `${pages.url}/api/me`);
  expect(api?.method).toBe('GET');
  expect(api?.headers).toContainEqual(['Authorization', 'Bearer local-token-123']);

  const login = observation.requests.find((r) => r.url === `${pages.url}/login`);
  expect(login?.method).toBe('POST');
  expect(new URLSearchParams(login?.body).get('username')).toBe('alice');

  const redirect = observation.responses.find((r) => r.url === `${pages.url}/login`);
  expect(redirect?.status).toBe(302);
  expect(redirect?.headers.filter(([name]) => name.toLowerCase() === 'set-cookie').map(([, v]) => v)).toEqual([
    'sid=session-alice; Path=/; HttpOnly',
    'theme=dark; Path=/',
  ]);
  const me = observation.responses.find((r) => r.url === `${pages.url}/api/me`);
  expect(JSON.parse(me?.body ?? '{}')).toEqual({ user: 'alice', access_token: 'api-token-789' });
  expect(observation.responses.find((r) => r.url.endsWith('/welcome.html?code=code-alice'))?.body).toContain('<h1 id="greeting">');

  expect(observation.urls).toContain(`${pages.url}/welcome.html?code=code-alice`);
  expect(observation.urls.at(-1)).toBe(`${pages.url}/welcome.html?code=code-alice`);
  expect(observation.cookies).toContainEqual(expect.objectContaining({ name: 'sid', value: 'session-alice', httpOnly: true, path: '/' }));
  expect(storage.cookies.map((cookie) => cookie.name).sort()).toEqual(['sid', 'theme']);
  expect(storage.origins).toEqual([{ origin: pages.url, localStorage: [{ name: 'token', value: 'local-token-123' }] }]);

  const where = { user: 'alice' };
  expect(extract(observation, extraction('header', 'Authorization', 'Bearer (.+)'), where)).toBe('local-token-123');
  expect(extract(observation, extraction('header', 'x-api-token'), where)).toBe('header-token-456');
  expect(extract(observation, extraction('cookie', 'sid'), where)).toBe('session-alice');
  expect(extract(observation, extraction('body', 'access_token'), where)).toBe('api-token-789');
  expect(extract(observation, extraction('query', 'code'), where)).toBe('code-alice');
});

test('a wrong password is a failed assertion, not a silent success: the page\'s error is quoted as the assertion waits', async ({ context, pages }) => {
  const operation = signIn(pages.url);
  operation.project.tests[0]!.commands.splice(4, 2, { id: 'a', command: 'assertTitle', target: 'Welcome' });
  operation.waitForSeconds = 5; // a loaded machine must not time out the click; assertTitle fails after at most this
  // The answer's `<p id="error">` appeared after the submit: a refusal ends the wait (issue 35, item 4).
  await expect(run(context, operation, { username: 'alice', password: 'wrong' })).rejects.toThrow(
    /command 5 \(assertTitle "Welcome"\): the page shows an error since the sign-in was submitted: "Wrong password"/,
  );
});

test('redirects are observed hop by hop; the query of the final URL is extractable', async ({ context, pages }) => {
  const { observation } = await run(context, op([c('open', `${pages.url}/redirect`)]));
  expect(observation.responses.map((r) => [r.url.replace(pages.url, ''), r.status]).slice(0, 2)).toEqual([
    ['/redirect', 302],
    ['/callback?code=redirected', 200],
  ]);
  expect(observation.urls.at(-1)).toBe(`${pages.url}/callback?code=redirected`);
  expect(extract(observation, extraction('query', 'code'), { user: 'alice' })).toBe('redirected');
});

test('prepareContext sends the user\'s headers and cookies from the first request on', async ({ context, pages }) => {
  const operation = op([c('open', '/help.html')], { url: pages.url });
  const startUrl = browserStartUrl(operation, {}, { user: 'alice' });
  expect(startUrl).toBe(pages.url);
  await prepareContext(
    context,
    {
      headers: [{ name: 'X-Tenant', values: ['acme', 'beta'] }, { name: 'x-tenant', values: ['gamma'] }],
      cookies: [{ name: 'pref', values: ['a b;c'] }],
    },
    startUrl,
  );
  await run(context, operation);
  const help = pages.received.filter((r) => r.url === '/help.html').at(-1);
  expect(help?.headers['x-tenant']).toBe('acme, beta, gamma');
  expect(help?.headers.cookie).toBe('pref=a%20b%3Bc');
});

test('browserStartUrl: the project url, else the first absolute open, else nothing', () => {
  const where = { user: 'alice' };
  expect(browserStartUrl(op([c('open', '{{base}}/login')]), { base: 'https://app.test' }, where)).toBe('https://app.test/login');
  expect(browserStartUrl(op([c('open', '/login'), c('open', 'https://b.test/x')]), {}, where)).toBe('https://b.test/x');
  expect(browserStartUrl(op([c('open', '/login')]), {}, where)).toBeUndefined();
});

test('prepareContext refuses cookies with nowhere to send them', async ({ context }) => {
  await expect(prepareContext(context, { cookies: [{ name: 'a', values: ['b'] }] }, undefined)).rejects.toThrow(
    'the user has cookies but the browser project opens no URL to send them to',
  );
});
