import { test, expect } from '@playwright/test';
import { SAFE_METHODS } from '../../../src/config/schema/index.js';
import type { DenyRules } from '../../../src/runtime/access/matrix.js';
import {
  judgeReplays, jsonDifferences, replayMarkdown, replayReport, replaySummaryLine, replayVerdict, requestPattern,
  memoryClaims, ReplayPacer, ReplaySelection, sameAnswer, withoutCredentials, type ReplayAnswer, type ReplayCell, type ReplayRow,
} from '../../../src/runtime/access/replay/index.js';

// Issue 38: the access replay's pure parts (which requests, how each replay is judged, the run's table).
const URL_ = 'https://a.test/api/orders/17?token=s3cr3t';
const rules: DenyRules = { deny: [401, 403], loginRedirect: [] };
const json = (body: unknown, status = 200): ReplayAnswer => ({ url: URL_, status, body: JSON.stringify(body), contentType: 'application/json' });
const html = (body: string, status = 200): ReplayAnswer => ({ url: URL_, status, body, contentType: 'text/html; charset=utf-8' });

test('URL patterns: numeric ids, UUIDs and long hex are one pattern per method; query values are dropped', () => {
  expect(requestPattern('get', 'https://a.test/api/orders/17?page=2&q=x')).toBe('GET https://a.test/api/orders/{id}?page&q');
  expect(requestPattern('GET', 'https://a.test/api/orders/18?q=y&page=3')).toBe('GET https://a.test/api/orders/{id}?page&q');
  expect(requestPattern('GET', 'https://a.test/u/3f2504e0-4f89-11d3-9a0c-0305e82c3301/files/5f3c9a0e1b2d4c6e8f0a')).toBe('GET https://a.test/u/{uuid}/files/{hex}');
  // Words stay words: a hex-looking word without digits, a short hex, a slug with digits.
  expect(requestPattern('GET', 'https://a.test/deadbeefcafebabe/abc123/v2')).toBe('GET https://a.test/deadbeefcafebabe/abc123/v2');
  expect(requestPattern('DELETE', 'https://a.test/api/orders/17')).toBe('DELETE https://a.test/api/orders/{id}');
  expect(requestPattern('GET', 'not a url')).toBeUndefined();
});

test('the selection: safe methods only unless asked, scope origins only, no assets, one per pattern, bounded per test and per run', () => {
  const claims = memoryClaims();
  const selection = new ReplaySelection({ owner: 'alice', origins: ['https://a.test/'], unsafe: false, safeMethods: SAFE_METHODS, claims, bounds: { perTest: 3, perRun: 4 } });
  expect(selection.offer({ method: 'GET', url: 'https://a.test/api/orders/17' })).toBe('taken');
  expect(selection.offer({ method: 'GET', url: 'https://a.test/api/orders/18' })).toBe('duplicate');
  expect(selection.offer({ method: 'POST', url: 'https://a.test/api/orders' })).toBe('unsafe');
  expect(selection.offer({ method: 'GET', url: 'https://evil.test/api/orders/17' })).toBe('out_of_scope');
  expect(selection.offer({ method: 'GET', url: 'http://a.test/api/orders/17' })).toBe('out_of_scope');
  expect(selection.offer({ method: 'GET', url: 'https://a.test/app.js', resourceType: 'script' })).toBe('assets');
  expect(selection.offer({ method: 'GET', url: 'https://a.test/logo.png', resourceType: 'image' })).toBe('assets');
  expect(selection.offer({ method: 'GET', url: 'https://a.test/orders', resourceType: 'document' })).toBe('taken');
  expect(selection.offer({ method: 'GET', url: 'https://a.test/api/me', resourceType: 'fetch' })).toBe('taken');
  expect(selection.offer({ method: 'GET', url: 'https://a.test/api/other' })).toBe('over_limit');
  expect(selection.taken().map((r) => r.pattern)).toEqual(['GET https://a.test/api/orders/{id}', 'GET https://a.test/orders', 'GET https://a.test/api/me']);
  expect(selection.skipped()).toEqual({ unsafe: 1, out_of_scope: 2, assets: 2, over_limit: 1 });
  // The next test of the worker: patterns seen are not replayed again, and the run's bound holds.
  const next = new ReplaySelection({ owner: 'alice', origins: ['https://a.test'], unsafe: true, safeMethods: SAFE_METHODS, claims, bounds: { perTest: 3, perRun: 4 } });
  expect(next.offer({ method: 'GET', url: 'https://a.test/api/orders/99' })).toBe('duplicate');
  expect(next.offer({ method: 'DELETE', url: 'https://a.test/api/orders/99' })).toBe('taken');
  expect(next.offer({ method: 'GET', url: 'https://a.test/api/last' })).toBe('over_limit');
});

test('the same pattern sent by another owner is another request (its own row); the test\'s bound leaves a pattern free for the run', () => {
  const claims = memoryClaims();
  const bounds = { perTest: 1, perRun: 10 };
  const alice = new ReplaySelection({ owner: 'alice', origins: ['https://a.test'], unsafe: false, safeMethods: SAFE_METHODS, claims, bounds });
  expect(alice.offer({ method: 'GET', url: 'https://a.test/api/orders/17' })).toBe('taken');
  expect(alice.offer({ method: 'GET', url: 'https://a.test/api/orders/18' })).toBe('duplicate');
  expect(alice.offer({ method: 'GET', url: 'https://a.test/api/me' })).toBe('over_limit');
  const bob = new ReplaySelection({ owner: 'bob', origins: ['https://a.test'], unsafe: false, safeMethods: SAFE_METHODS, claims, bounds });
  expect(bob.offer({ method: 'GET', url: 'https://a.test/api/orders/99' })).toBe('taken');
  const later = new ReplaySelection({ owner: 'alice', origins: ['https://a.test'], unsafe: false, safeMethods: SAFE_METHODS, claims, bounds });
  expect(later.offer({ method: 'GET', url: 'https://a.test/api/me' })).toBe('taken');
});

test('the pacer spaces the requests to one origin by 1/rate seconds, each origin apart, in the order asked', async () => {
  let now = 1000;
  const slept: number[] = [];
  const pacer = new ReplayPacer(4, { now: () => now, sleep: async (ms) => void slept.push(ms) });
  await Promise.all([pacer.turn('https://a.test'), pacer.turn('https://a.test'), pacer.turn('https://b.test'), pacer.turn('https://a.test')]);
  expect(slept).toEqual([250, 500]);
  now += 600;
  await pacer.turn('https://a.test');
  expect(slept).toEqual([250, 500, 150]);
  now += 10_000;
  await pacer.turn('https://a.test');
  expect(slept).toHaveLength(3);
});

test('JSON is compared by value; what differs between the owner\'s two answers is ignored, the rest must match', () => {
  const owner = json({ id: 17, owner: 'alice', items: [1, 2], at: '10:01', csrf: 'a1' });
  const again = json({ csrf: 'b2', at: '10:02', items: [1, 2], owner: 'alice', id: 17 });
  expect(sameAnswer(owner, again, json({ owner: 'alice', id: 17, items: [1, 2], at: '11:00', csrf: 'zz' }))).toBe(true);
  expect(sameAnswer(owner, again, json({ owner: 'bob', id: 17, items: [1, 2], at: '11:00', csrf: 'zz' }))).toBe(false);
  expect(sameAnswer(owner, again, json({ id: 17, owner: 'alice', items: [1], at: '10:02', csrf: 'b2' }))).toBe(false);
  expect(sameAnswer(owner, again, json({ id: 17, owner: 'alice', items: [1, 2], at: '10:02', csrf: 'b2', extra: 1 }))).toBe(false);
  // The status must match, and JSON is not text.
  expect(sameAnswer(owner, again, json({ id: 17, owner: 'alice', items: [1, 2], at: '10:02', csrf: 'b2' }, 201))).toBe(false);
  expect(sameAnswer(owner, again, html('<p>17 alice</p>'))).toBe(false);
  // A `__proto__` key is data, compared as any other, and pollutes nothing.
  const proto = (value: string): ReplayAnswer => ({ url: URL_, status: 200, body: `{"__proto__":{"polluted":"${value}"},"a":1}`, contentType: 'application/json' });
  expect(sameAnswer(proto('x'), proto('x'), proto('x'))).toBe(true);
  expect(sameAnswer(proto('x'), proto('x'), proto('y'))).toBe(false);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect([...jsonDifferences({ 'a/b': { '~': 1 } }, { 'a/b': { '~': 2 } })]).toEqual(['/a~1b/~0']);
  // Deep nesting is bounded, compared as a whole past the bound.
  const deep = (leaf: number) => JSON.parse(`${'{"a":'.repeat(500)}${leaf}${'}'.repeat(500)}`) as unknown;
  expect(jsonDifferences(deep(1), deep(1)).size).toBe(0);
  expect(jsonDifferences(deep(1), deep(2)).size).toBe(1);
});

test('HTML is compared by its visible text: hidden inputs, meta, scripts and styles left out; changing words ignored', () => {
  const page = (csrf: string, time: string, name: string) => html(`<!DOCTYPE html><html><head><meta name="csrf" content="${csrf}"><title>t ${csrf}</title><style>.${csrf}{}</style></head><body><script>var n="${csrf}"</script><form><input type="hidden" name="csrf" value="${csrf}"></form><h1>Order 17</h1><p>for ${name}</p><footer>rendered at ${time}</footer></body></html>`);
  const owner = page('aaa', '10:01', 'alice');
  const again = page('bbb', '10:02', 'alice');
  expect(sameAnswer(owner, again, page('ccc', '10:03', 'alice'))).toBe(true);
  expect(sameAnswer(owner, again, page('ccc', '10:03', 'bob'))).toBe(false);
  // Owner answers of different lengths: the common start and end must match, the changed middle is ignored.
  const list = (middle: string, tail: string) => html(`<h1>Orders</h1><p>${middle}</p><p>${tail}</p>`);
  expect(sameAnswer(list('a b', 'end'), list('c d e', 'end'), list('x', 'end'))).toBe(true);
  expect(sameAnswer(list('a b', 'end'), list('c d e', 'end'), list('x', 'other'))).toBe(false);
  // A redirect: the same status to another place is not the owner's answer.
  const redirect = (location: string): ReplayAnswer => ({ url: URL_, status: 302, location });
  expect(sameAnswer(redirect('/orders/17/'), redirect('/orders/17/'), redirect('/orders/17/'))).toBe(true);
  expect(sameAnswer(redirect('/orders/17/'), redirect('/orders/17/'), redirect('/home'))).toBe(false);
});

test('a greeting naming each user is not the page\'s content (Django\'s "Welcome, admin."); the content must still match, JSON is never read so', () => {
  const page = (user: string, csrf: string, order: string) => html(`<div id="user-tools">Welcome, <strong>${user}</strong>. <a href="/logout">Log out</a></div><form><input type="hidden" name="csrf" value="${csrf}"></form><h1>Order ${order}</h1><p>for alice</p>`);
  const owner = page('admin', 'a1', '17');
  const again = page('admin', 'b2', '17');
  const names = { owner: ['admin'], other: ['deputy'] };
  expect(sameAnswer(owner, again, page('deputy', 'c3', '17'), names)).toBe(true);
  expect(replayVerdict(page('deputy', 'c3', '17'), rules, owner, again, names)).toEqual({ verdict: 'same', status: 200 });
  expect(sameAnswer(owner, again, page('deputy', 'c3', '18'), names)).toBe(false);
  // Only where the owner's answer names the owner and the other's names its own user.
  expect(sameAnswer(owner, again, page('carol', 'c3', '17'), names)).toBe(false);
  expect(sameAnswer(owner, again, page('deputy', 'c3', '17'))).toBe(false);
  // Owner answers of different lengths (the prefix and suffix rule) read the greeting the same way.
  const list = (user: string, rows: string) => html(`<p>Welcome, ${user}.</p><ul>${rows}</ul><p>Logged in as ${user}</p>`);
  expect(sameAnswer(list('admin', '<li>a</li>'), list('admin', '<li>b</li><li>c</li>'), list('deputy', '<li>d</li>'), names)).toBe(true);
  expect(sameAnswer(list('admin', '<li>a</li>'), list('admin', '<li>b</li><li>c</li>'), list('deputy.', '<li>d</li>'), names)).toBe(false);
  // JSON naming its user is an answer for that user.
  expect(sameAnswer(json({ user: 'admin', id: 17 }), json({ user: 'admin', id: 17 }), json({ user: 'deputy', id: 17 }), names)).toBe(false);
});

test('verdicts are the access matrix\'s classification: denied, error, then same or different', () => {
  const owner = json({ id: 17, owner: 'alice' });
  const verdict = (answer: ReplayAnswer, r: DenyRules = rules) => replayVerdict(answer, r, owner, owner);
  expect(verdict(json({ error: 'no' }, 403))).toEqual({ verdict: 'denied', status: 403 });
  expect(verdict({ url: URL_, status: 302, location: '/login?next=/x' })).toMatchObject({ verdict: 'denied', status: 302 });
  expect(verdict(html('<a>Sign in</a>'), { ...rules, notMatch: 'Sign in' })).toMatchObject({ verdict: 'denied', status: 200 });
  expect(verdict(json({}, 404))).toMatchObject({ verdict: 'error', status: 404 });
  expect(verdict(json({}, 404), { ...rules, deny: [401, 403, 404] })).toEqual({ verdict: 'denied', status: 404 });
  expect(verdict(json({}, 500))).toMatchObject({ verdict: 'error', status: 500 });
  expect(verdict({ url: URL_, failure: 'network error' })).toEqual({ verdict: 'error', why: 'network error' });
  expect(verdict(json({ id: 17, owner: 'alice' }))).toEqual({ verdict: 'same', status: 200 });
  expect(verdict(json({ id: 18, owner: 'bob' }))).toEqual({ verdict: 'different', status: 200 });
});

test('a finding is another user with the owner\'s answer while anonymous is denied; anonymous same is public', () => {
  const cells = (entries: Array<[string, ReplayCell['verdict']]>) => new Map(entries.map(([user, verdict]) => [user, { verdict }]));
  expect(judgeReplays(cells([['bob', 'same'], ['carol', 'different'], ['dave', 'denied'], ['anonymous', 'denied']]))).toEqual({ public: false, findings: ['bob'] });
  expect(judgeReplays(cells([['bob', 'same'], ['anonymous', 'same']]))).toEqual({ public: true, findings: [] });
  expect(judgeReplays(cells([['bob', 'same'], ['anonymous', 'error']]))).toEqual({ public: false, findings: [] });
  expect(judgeReplays(cells([['bob', 'different'], ['anonymous', 'denied']]))).toEqual({ public: false, findings: [] });
});

test('the run\'s table: one row per pattern, findings first, skipped added up, query values masked, the end-of-run line', () => {
  const row = (pattern: string, url: string, findings: string[]): ReplayRow => ({
    owner: 'alice', method: 'GET', url, pattern, status: 200,
    replays: { bob: { verdict: findings.length ? 'same' : 'different', status: 200 }, anonymous: { verdict: 'denied', status: 401 } }, findings,
  });
  const report = replayReport([
    row('GET https://a.test/api/me', 'https://a.test/api/me', []),
    row('GET https://a.test/api/orders/{id}', 'https://a.test/api/orders/17?token=…', ['bob']),
    row('GET https://a.test/api/orders/{id}', 'https://a.test/api/orders/18', []),
  ], [{ unsafe: 1, out_of_scope: 0, assets: 3, over_limit: 0 }, { unsafe: 1, out_of_scope: 2, assets: 0, over_limit: 0 }]);
  expect(report.requests.map((r) => r.url)).toEqual(['https://a.test/api/orders/17?token=…', 'https://a.test/api/me']);
  expect(report.findings).toBe(1);
  expect(report.skipped).toEqual({ unsafe: 2, out_of_scope: 2, assets: 3, over_limit: 0 });
  expect(replaySummaryLine(report)).toBe('multiauth: access replay: 2 requests replayed as bob, anonymous; 1 finding');
  const markdown = replayMarkdown(report);
  expect(markdown).toContain('- bob gets alice\'s answer to GET /api/orders/17?token=… (anonymous is denied): possible broken object-level authorization');
  expect(markdown).toContain('| GET /api/orders/17?token=… | alice 200 | **same 200** | denied 401 |');
  expect(markdown).toContain('| GET /api/me | alice 200 | different 200 | denied 401 |');
  expect(markdown).not.toContain('s3cr3t');
});

test('the owner\'s credentials are taken out: Cookie, Authorization, what the session sets by name, any value holding a secret; carried says whether any was', () => {
  const isSecret = (value: string) => value.includes('s3cr3t');
  expect(withoutCredentials({
    url: 'https://a.test/o?key=s3cr3t&page=2&tenant=acme',
    headers: [['Cookie', 'sid=1'], ['authorization', 'Bearer old'], ['X-Api-Token', 'an-older-token'], [':authority', 'a.test'], ['X-Echo', 'x s3cr3t'], ['Accept', 'text/html']],
  }, { isSecret, headerNames: new Set(['x-api-token']), queryNames: new Set(['tenant']) })).toEqual({
    url: 'https://a.test/o?page=2', headers: [['Accept', 'text/html']], carried: true,
  });
  expect(withoutCredentials({ url: 'https://a.test/login?next=%2F', headers: [['Accept', '*/*']] }, { isSecret })).toEqual({
    url: 'https://a.test/login?next=%2F', headers: [['Accept', '*/*']], carried: false,
  });
});
