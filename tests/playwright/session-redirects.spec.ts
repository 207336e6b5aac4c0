import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { route } from '../../fixtures/demo-server/route.js';
import { runInlineProject } from '../support/inline-project.js';

/**
 * A user signed in with a token in headers and in the body, on an app that redirects to another
 * host (an avatar service, a presigned download URL): the session goes with every request inside
 * the origin, redirects included, and never to the other host, from a page's images and API calls
 * as from `authedRequest`. Playwright alone carries a route's headers onto every redirect, and its
 * request context every header but `Authorization`, wherever the redirect points.
 */

/** What the other host was sent: path, Authorization, X-Api-Key, body. */
interface Landed {
  url: string;
  authorization: string | null;
  apiKey: string | null;
  body: string;
}

let demo: DemoServer;
let other: Server;
const landed: Landed[] = [];

test.beforeAll(async () => {
  other = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      landed.push({ url: req.url ?? '', authorization: req.headers.authorization ?? null, apiKey: (req.headers['x-api-key'] as string | undefined) ?? null, body });
      res.writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' }).end('<title>elsewhere</title>');
    });
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  // Another host than the demo server's 127.0.0.1: outside the scope (the origin of baseURL).
  const elsewhere = `http://localhost:${(other.address() as AddressInfo).port}`;
  const away = (status: number, to: string) => (ctx: Parameters<Parameters<typeof route>[2]>[0]) => void ctx.res.writeHead(status, { location: to }).end();
  demo = await startDemoServer({
    extraRoutes: [
      route('GET', '/away-image', away(302, `${elsewhere}/image`)),
      route('GET', '/away-api', away(302, `${elsewhere}/api-landed`)),
      route('GET', '/away-page', away(302, `${elsewhere}/page-landed?ticket=t-5`)),
      route('POST', '/away-post', away(307, `${elsewhere}/posted`)),
      route('GET', '/home', away(302, '/whoami')),
      route('GET', '/loop', away(302, '/loop')),
      route('GET', '/slow-hop', away(302, '/sleepy')),
      route('GET', '/sleepy', (ctx) => void setTimeout(() => ctx.json(200, { late: true }), 2_000)),
      route('GET', '/images', (ctx) => void ctx.res.writeHead(200, { 'content-type': 'text/html' }).end('<img src="/away-image">')),
      route('GET', '/events', (ctx) => {
        // Never ends, as an event stream: only a request the browser sends itself gets its first event.
        ctx.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        ctx.res.write(`data: ${ctx.req.headers.authorization?.startsWith('Bearer ') ? 'carried' : 'missing'}\n\n`);
      }),
    ],
  });
});
test.afterAll(async () => {
  await demo?.stop();
  other?.closeAllConnections();
  other?.close();
});

/** A procedure signing in at the demo server's token endpoint, its token put where `injections` say. */
const procedure = (name: string, injections: string[]) => `
  - name: ${name}
    operations:
      - tech: http
        parameters: { url: "\${DEMO_URL}/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
        extractions: [{ name: access_token, location: body, key: data.auth.access_token }]
    injections:
${injections.map((injection) => `      - ${injection}`).join('\n')}`;

const BEARER = '{ location: header, key: Authorization, prefix: Bearer, variable: access_token }';
const CONFIG = `
procedures:${procedure('token', [BEARER, '{ location: header, key: X-Api-Key, variable: access_token }', '{ location: body, key: token, variable: access_token }'])}${procedure('bearer', [BEARER])}
users:
  - { name: alice, procedure: token, credentials: { username: alice, password: alice-password } }
  - { name: bob, procedure: bearer, credentials: { username: bob, password: bob-password } }
`;

// alice's session has an API key and a body token beside its Bearer token; bob's, the token alone
// (Playwright's routing carries Authorization onto a redirect as any other header).
const PAGE_SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const user of ['alice', 'bob']) test.describe(() => {
test.use({ authUser: user });
test('redirects as ' + user, async ({ page }) => {
  await page.goto('/home');
  await expect(page.locator('body')).toContainText('"user":"' + user + '"');
  // A fetch redirected inside the origin: each hop with the session.
  const inside = await page.evaluate(async () => (await fetch('/home')).json());
  expect(inside.user).toBe(user);
  await page.goto('/images');
  await expect.poll(() => page.evaluate(() => document.images[0]?.complete)).toBe(true);
  const posted = await page.evaluate(async () => {
    const r = await fetch('/away-post', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'note=x' });
    return r.status;
  });
  expect(posted).toBe(200);
  const event = await page.evaluate(() => new Promise((resolve) => {
    const source = new EventSource('/events');
    source.onmessage = (e) => { source.close(); resolve(e.data); };
  }));
  expect(event).toBe('carried');
});
});
`;

/** Runs `spec` and checks what the other host got: `paths`, and nothing of a session. */
async function expectNothingLanded(spec: string, paths: string[]): Promise<void> {
  landed.length = 0;
  const result = await runInlineProject({ 'multiauth.yaml': CONFIG, 'redirects.spec.ts': spec }, { env: { DEMO_URL: demo.url } });
  expect(result.failed, result.output).toBe(0);
  expect(result.passed).toBeGreaterThan(0);
  expect(landed.map((l) => l.url).sort()).toEqual(paths);
  for (const request of landed) {
    // Said as carried or not: a failure prints no token.
    expect(request.authorization === null ? 'none' : 'carried', request.url).toBe('none');
    expect(request.apiKey === null ? 'none' : 'carried', request.url).toBe('none');
    expect(request.body.includes('token') ? 'carried' : 'none', request.url).toBe('none');
  }
  for (const posted of landed.filter((l) => l.url === '/posted')) expect(posted.body).toBe('note=x');
}

test('a page\'s images and API calls take the token through redirects inside the origin and never to another host', async () => {
  await expectNothingLanded(PAGE_SPEC, ['/image', '/image', '/posted', '/posted']);
});

const API_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('redirects', async ({ authedRequest }) => {
  const inside = await authedRequest.get('/home');
  expect(inside.url()).toContain('/whoami');
  expect((await inside.json()).user).toBe('alice');
  const away = await authedRequest.get('/away-api');
  expect(away.url()).toContain('/api-landed');
  const posted = await authedRequest.post('/away-post', { form: { note: 'x' } });
  expect(posted.url()).toContain('/posted');
  const unfollowed = await authedRequest.get('/away-api', { maxRedirects: 0 });
  expect(unfollowed.status()).toBe(302);
  // Followed here hop by hop, as Playwright would: its limit, and one timeout for every hop together.
  await expect(authedRequest.get('/loop', { maxRedirects: 3 })).rejects.toThrow(/Max redirect count exceeded/);
  const started = Date.now();
  await expect(authedRequest.get('/slow-hop', { timeout: 500 })).rejects.toThrow(/Timeout/);
  expect(Date.now() - started).toBeLessThan(1_500);
});
`;

test('authedRequest takes the session through redirects inside the origin and never to another host', async () => {
  await expectNothingLanded(API_SPEC, ['/api-landed', '/posted']);
});

const NAVIGATION_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
for (const n of [1, 2]) test('navigated ' + n, async ({ page }) => {
  await page.goto('/away-page?from=' + n);
  await expect(page).toHaveTitle('elsewhere');
});
`;

test('a navigation redirected to another origin, which Playwright sends the headers to, is said on the test and once on the console', async () => {
  landed.length = 0;
  const result = await runInlineProject({ 'multiauth.yaml': CONFIG, 'navigation.spec.ts': NAVIGATION_SPEC }, { env: { DEMO_URL: demo.url } });
  expect(result.failed, result.output).toBe(0);
  expect(landed.map((l) => l.url)).toEqual(['/page-landed?ticket=t-5', '/page-landed?ticket=t-5']);
  const to = `http://localhost:${(other.address() as AddressInfo).port}`;
  const said = `alice's page went from ${demo.url}/away-page?from=… to another origin, ${to}, through a redirect, and Playwright sent ${to} the session's authorization, x-api-key headers`;
  for (const title of ['navigated 1', 'navigated 2']) {
    expect(result.annotations[title]?.find((a) => a.type === 'multiauth-session-left-origin')?.description).toContain(said);
  }
  expect(result.output.split(said).length - 1).toBe(1);
  expect(result.output).not.toContain('eyJ');
});
