import { test, expect } from '@playwright/test';
import type { IncomingMessage } from 'node:http';
import { request as undiciRequest } from 'undici';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { route } from '../../fixtures/demo-server/route.js';
import { applySession } from '../../src/runtime/session/apply.js';
import type { Session } from '../../src/runtime/session/session.js';
import { runMain } from '../support/cli-in-process.js';
import { writeTempConfig } from '../support/temp-files.js';
import { runInlineProject } from '../support/inline-project.js';
import { CHROMIUM } from '../support/chromium.js';

/**
 * One session, three senders, one request on the wire: `authedRequest`, a signed-in page (with a
 * scope, where the browser's jar holds every cookie, and without, where injected cookies go in
 * the `Cookie` header), and a script applying what `multiauth login --json` printed. A server
 * records what each sent; the parts the session decides must be the same bytes.
 */

interface Seen {
  sender: string;
  method: string;
  url: string;
  /** Raw header fields, lower-case names, in order: shows repeated fields as they came. */
  fields: Array<[string, string]>;
  body: string;
}

function record(req: IncomingMessage): Pick<Seen, 'method' | 'url' | 'fields'> {
  const raw = req.rawHeaders;
  const fields: Seen['fields'] = [];
  for (let i = 0; i < raw.length; i += 2) fields.push([(raw[i] as string).toLowerCase(), raw[i + 1] as string]);
  return { method: req.method ?? '', url: req.url ?? '', fields };
}

/** A sign-in whose answer is the same every time (so the CLI's and the fixtures' sessions agree), and an echo. */
function routes(seen: Seen[]) {
  return [
    route('POST', '/fixed-sign-in', (ctx) => {
      ctx.res.setHeader('set-cookie', 'sc=signed-in; Path=/');
      ctx.json(200, { token: 'fixed-token' });
    }),
    route('GET', '/blank', (ctx) => {
      seen.push({ ...record(ctx.req), sender: `${ctx.url.searchParams.get('from')}:navigation`, body: '' });
      ctx.res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>blank</title>');
    }),
    route('*', '/echo', async (ctx) => {
      const seenHere = record(ctx.req);
      const sender = seenHere.fields.find(([name]) => name === 'x-sender')?.[1] ?? '?';
      seen.push({ ...seenHere, sender, body: await ctx.text() });
      ctx.json(200, { ok: true });
    }),
  ];
}

const CONFIG = `
procedures:
  - name: fixed
    operations:
      - tech: http
        parameters: { url: "\${DEMO_URL}/fixed-sign-in", method: POST }
        extractions:
          - { name: token, location: body, key: token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
      - { location: cookie, key: tok, variable: token }
      - { location: query, key: access_token, variable: token }
      - { location: body, key: auth.token, variable: token }
users:
  - name: alice
    procedure: fixed
    credentials:
      headers: [{ name: X-Multi, values: [one, two] }]
      query_parameters: [{ name: scope, values: ["read write"] }]
      body: { tenant: acme }
  - name: bob
    credentials: { username: bob, password: bob-password }
`;

/** Two projects: one with a baseURL (a scope: cookies all in the browser's jar), one without. */
const PLAYWRIGHT_CONFIG = `
import { defineConfig } from '@playwright/test';
const launchOptions = { executablePath: ${JSON.stringify(CHROMIUM)} };
export default defineConfig({
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  projects: [
    { name: 'scoped', use: { launchOptions, baseURL: process.env.DEMO_URL } },
    { name: 'everywhere', use: { launchOptions } },
  ],
});
`;

function spec(user: string): string {
  return `
import { test } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
test('${user} sends', async ({ authedRequest, page }, testInfo) => {
  const demo = process.env.DEMO_URL;
  const sender = testInfo.project.name + ':${user}:';
  await authedRequest.post(demo + '/echo?x=1', { headers: { 'x-sender': sender + 'request' }, data: { note: 'x' } });
  await page.goto(demo + '/blank?from=' + sender + 'page');
  await page.evaluate(async (sender) => {
    await fetch('/echo?x=1', { method: 'POST', headers: { 'content-type': 'application/json', 'x-sender': sender }, body: JSON.stringify({ note: 'x' }) });
  }, sender + 'page');
});
`;
}

function cookiesOf(seen: Seen): string[] {
  return seen.fields
    .filter(([name]) => name === 'cookie')
    .flatMap(([, value]) => value.split(';').map((pair) => pair.trim()))
    .filter((pair) => pair !== '')
    .sort();
}

/** The part of a request a session decides: method, URL, its headers as fields, its cookies, the body. */
function sessionPart(seen: Seen, headerNames: string[]) {
  const cookies = cookiesOf(seen);
  return {
    method: seen.method,
    url: seen.url,
    // Sorted: each sender orders its fields its own way; what counts is how many and their values.
    fields: seen.fields.filter(([name]) => headerNames.includes(name)).sort(([a], [b]) => a.localeCompare(b)),
    cookies,
    body: JSON.parse(seen.body) as unknown,
  };
}

test.describe.configure({ timeout: 180_000 });

let demo: DemoServer;
const seen: Seen[] = [];
test.beforeAll(async () => {
  demo = await startDemoServer({ extraRoutes: routes(seen) });
});
test.afterAll(async () => demo?.stop());

test('authedRequest, the page and a script using `login --json` send what applySession decides, identically', async () => {
  const result = await runInlineProject(
    { 'playwright.config.ts': PLAYWRIGHT_CONFIG, 'multiauth.yaml': CONFIG, 'alice.spec.ts': spec('alice'), 'bob.spec.ts': spec('bob') },
    // One worker: each project starts its own, and nothing here is about several at once.
    { env: { DEMO_URL: demo.url }, args: ['--workers=1'] },
  );
  expect(result.output).toContain('4 passed');

  const { file, remove } = writeTempConfig(CONFIG.replaceAll('${DEMO_URL}', demo.url));
  try {
    for (const user of ['alice', 'bob']) {
      // In process: what `login --json` prints is the point here, not the process (tests/cli has the bin's).
      const run = await runMain(['login', user, '-c', file, '--json', '--reveal']);
      expect(run.stderr).toBe('');
      const printed = JSON.parse(run.stdout) as Pick<Session, 'user' | 'headers' | 'cookies' | 'query' | 'body' | 'expiresAt'>;
      const session: Session = { ...printed, origins: [], createdAt: Date.now(), variables: {}, origin: 'signed-in' };
      const sent = applySession(session, {
        method: 'POST',
        url: `${demo.url}/echo?x=1`,
        headers: [['content-type', 'application/json'], ['x-sender', `cli:${user}:script`]],
        body: JSON.stringify({ note: 'x' }),
      });
      const response = await undiciRequest(sent.url, { method: 'POST', headers: sent.headers.flat(), body: sent.body });
      expect(response.statusCode).toBe(200);
      await response.body.dump();
    }
  } finally {
    remove();
  }

  // A page's very first request to a host already carries the injected cookie.
  const navigations = seen.filter((s) => s.sender.endsWith(':alice:page:navigation'));
  expect(navigations).toHaveLength(2);
  for (const navigation of navigations) expect(cookiesOf(navigation), navigation.sender).toEqual(['sc=signed-in', 'tok=fixed-token']);

  const alice = seen.filter((s) => s.sender.includes(':alice:') && !s.sender.endsWith(':navigation'));
  expect(alice.map((s) => s.sender).sort()).toEqual(['cli:alice:script', 'everywhere:alice:page', 'everywhere:alice:request', 'scoped:alice:page', 'scoped:alice:request']);
  const aliceParts = alice.map((s) => sessionPart(s, ['authorization', 'x-multi']));
  expect(aliceParts[0]).toEqual({
    method: 'POST',
    url: '/echo?x=1&scope=read%20write&access_token=fixed-token',
    fields: [
      ['authorization', 'Bearer fixed-token'],
      ['x-multi', 'one, two'],
    ],
    cookies: ['sc=signed-in', 'tok=fixed-token'],
    body: { note: 'x', tenant: 'acme', auth: { token: 'fixed-token' } },
  });
  alice.forEach((s, i) => expect(aliceParts[i], s.sender).toEqual(aliceParts[0]));

  const bob = seen.filter((s) => s.sender.includes(':bob:') && !s.sender.endsWith(':navigation'));
  expect(bob).toHaveLength(5);
  const bobParts = bob.map((s) => sessionPart(s, ['authorization']));
  expect(bobParts[0]).toEqual({
    method: 'POST',
    url: '/echo?x=1',
    fields: [['authorization', `Basic ${Buffer.from('bob:bob-password').toString('base64')}`]],
    cookies: [],
    body: { note: 'x' },
  });
  bob.forEach((s, i) => expect(bobParts[i], s.sender).toEqual(bobParts[0]));
});
