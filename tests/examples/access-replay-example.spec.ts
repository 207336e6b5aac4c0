import { test, expect } from '@playwright/test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runDemoSuite } from '../support/demo-run.js';
import { ROOT } from '../support/root.js';

interface Attachment { name: string; contentType: string; body?: string }
interface Suite {
  specs: Array<{ title: string; tests: Array<{ projectName: string; results: Array<{ attachments: Attachment[] }> }> }>;
  suites?: Suite[];
}
interface ReplayJson {
  requests: Array<{ owner: string; method: string; url: string; status?: number; replays: Record<string, { verdict: string; status?: number }>; findings: string[] }>;
  findings: number;
  skipped: Record<string, number>;
}

const OUT = join(ROOT, 'examples', 'access-replay', 'test-results');

// Issue 38: the example's role suite (alice and bob) with accessReplay, against the demo server's
// planted object-level bug (any signed-in user reads any order) and its public notices. One child run.
test('the replay of the role suite reports exactly the planted finding, not the public resource, in the table, the files, the attachments and the line', async () => {
  test.setTimeout(240_000);
  rmSync(OUT, { recursive: true, force: true });
  const { code, stdout, stderr } = await runDemoSuite({ config: 'examples/access-replay/playwright.config.ts', env: { DEMO_REPORTER: 'json' } });
  expect(code, stderr).toBe(0);

  // The line at the end of the run: 4 requests per user (orders, an order, notices, whoami).
  expect(stderr).toContain('multiauth: access replay: 8 requests replayed as bob, anonymous; 1 finding\n');

  const json = JSON.parse(readFileSync(join(OUT, 'multiauth-access-replay.json'), 'utf8')) as ReplayJson;
  expect(json.findings).toBe(1);
  const flagged = json.requests.filter((row) => row.findings.length);
  expect(flagged).toHaveLength(1);
  expect(flagged[0]).toMatchObject({ owner: 'alice', method: 'GET', status: 200, findings: ['bob'], replays: { bob: { verdict: 'same', status: 200 }, anonymous: { verdict: 'denied', status: 401 } } });
  expect(new URL(flagged[0]!.url).pathname).toBe('/api/orders/1001');
  // The findings come first; the public notices are `same` for anonymous and no finding.
  expect(json.requests[0]).toEqual(flagged[0]);
  const notices = json.requests.filter((row) => new URL(row.url).pathname === '/api/notices');
  expect(notices.map((row) => [row.owner, row.replays.anonymous?.verdict, row.findings.length])).toEqual([['alice', 'same', 0], ['bob', 'same', 0]]);
  // Each user's own list is the app answering for bob (different), not a finding; bob is not replayed as himself.
  const aliceOrders = json.requests.find((row) => row.owner === 'alice' && new URL(row.url).pathname === '/api/orders');
  expect(aliceOrders?.replays.bob?.verdict).toBe('different');
  expect(json.requests.filter((row) => row.owner === 'bob').every((row) => Object.keys(row.replays).join() === 'anonymous')).toBe(true);
  // The page's document load and its fetch were replayed too.
  expect(json.requests.filter((row) => row.owner === 'alice').map((row) => new URL(row.url).pathname).sort()).toEqual(['/api/notices', '/api/orders', '/api/orders/1001', '/whoami']);
  expect(json.skipped).toEqual({ unsafe: 0, out_of_scope: 0, assets: 0, over_limit: 0 });

  const markdown = readFileSync(join(OUT, 'multiauth-access-replay.md'), 'utf8');
  expect(markdown).toContain('- bob gets alice\'s answer to GET /api/orders/1001 (anonymous is denied): possible broken object-level authorization');
  // No secret of the run in the files or the report: passwords, and the tokens the demo hands out.
  for (const text of [markdown, JSON.stringify(json), stdout, stderr]) {
    expect(text).not.toMatch(/alice-password|bob-password|eyJ[\w-]{10,}/);
  }

  // Each test has its own rows as the attachment `access replay`.
  const tests = (function flatten(suites: Suite[]): Array<Suite['specs'][number]['tests'][number] & { title: string }> {
    return suites.flatMap((s) => [...s.specs.flatMap((spec) => spec.tests.map((t) => ({ ...t, title: spec.title }))), ...flatten(s.suites ?? [])]);
  })((JSON.parse(stdout) as { suites: Suite[] }).suites);
  expect(tests).toHaveLength(4);
  for (const t of tests) {
    const attached = t.results.at(-1)!.attachments.filter((a) => a.name === 'access replay');
    expect(attached, `${t.projectName} ${t.title}`).toHaveLength(1);
    const body = Buffer.from(attached[0]!.body ?? '', 'base64').toString('utf8');
    const finding = t.projectName === 'roles-alice' && t.title.startsWith('my orders');
    expect(body.includes('bob gets alice\'s answer to GET /api/orders/1001'), `${t.projectName} ${t.title}`).toBe(finding);
  }
  rmSync(OUT, { recursive: true, force: true });
});
