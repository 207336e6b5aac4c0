import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInlineProject, inlineConfig } from '../support/inline-project.js';
import { startHttpServer, readBody, type RunningServer } from '../support/servers/node-http.js';

// Issue 38: accessReplay's options in one child run, a project each: `fail`, `unsafe` (and its
// absence), an unknown user of `as`, the scope's origins; users with static headers, one server.
const TOKENS: Record<string, string> = { 'tok-alice-s3cret': 'alice', 'tok-bob-s3cret': 'bob' };

let app: RunningServer;
let other: RunningServer;
const seen: string[] = [];

test.beforeAll(async () => {
  app = await startHttpServer(async (req, res) => {
    const who = TOKENS[String(req.headers['x-token'] ?? '')] ?? 'anonymous';
    const body = await readBody(req);
    seen.push(`${req.method} ${req.url} ${who}${body ? ` ${body}` : ''}`);
    if (who === 'anonymous') return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"sign in"}');
    // Every signed-in user reads note 1, whoever owns it (the bug): the same answer for all.
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ note: 1, text: 'alice\'s note', nonce: Math.random() }));
  });
  other = await startHttpServer((req, res) => {
    seen.push(`other ${req.method} ${req.url}`);
    res.writeHead(200).end('ok');
  });
});
test.afterAll(async () => {
  await app.close();
  await other.close();
});

test('fail names the findings once; unsafe methods only when asked, in order after the test; other origins never; an unknown user is named', async () => {
  test.setTimeout(180_000);
  const config = `scope: ["${app.url}"]
users:
  - name: alice
    credentials: { headers: [{ name: X-Token, values: [tok-alice-s3cret] }] }
  - name: bob
    credentials: { headers: [{ name: X-Token, values: [tok-bob-s3cret] }] }
`;
  const spec = (prefix: string) => `import { test, expect } from 'playwright-multiauth';
${prefix === 'fail' || prefix === 'unknown' ? 'test.fail(true, \'fails as declared\');' : ''}
test('${prefix}', async ({ authedRequest }) => {
  expect((await authedRequest.get('/${prefix}/notes/1?key=k3y-s3cret')).status()).toBe(200);
  expect((await authedRequest.post('/${prefix}/notes', { data: { text: 'hi' } })).status()).toBe(200);
  expect((await authedRequest.get('${other.url}/${prefix}/elsewhere')).status()).toBe(200);
});
`;
  const project = (name: string, replay: string) => `{ name: '${name}', testMatch: '${name}.spec.ts', use: { authUser: 'alice', accessReplay: ${replay} } }`;
  const result = await runInlineProject({
    'multiauth.yaml': config,
    'playwright.config.ts': inlineConfig(`workers: 1, projects: [${[
      project('fail', "{ as: ['bob'], fail: true }"),
      project('unsafe', "{ as: ['bob'], unsafe: true }"),
      project('safe', "{ as: ['bob'] }"),
      project('unknown', "{ as: ['bbo'] }"),
    ].join(', ')}],`),
    'fail.spec.ts': spec('fail'),
    'unsafe.spec.ts': spec('unsafe'),
    'safe.spec.ts': spec('safe'),
    'unknown.spec.ts': spec('unknown'),
  }, { env: { DEMO_URL: app.url } });
  // fail and unknown fail as declared (test.fail): the run passes.
  expect(result.exitCode, result.output).toBe(0);
  const errors = (title: string) => JSON.stringify(result.report.suites.flatMap((s) => s.specs).filter((s) => s.title === title).flatMap((s) => s.tests.flatMap((t) => t.results.flatMap((r) => r.errors))));
  expect(errors('fail')).toContain('access replay: 1 finding:');
  expect(errors('fail')).toContain('bob gets alice\'s answer to GET /fail/notes/1?key=… (anonymous is denied): possible broken object-level authorization');
  expect(errors('fail').match(/bob gets alice/g)).toHaveLength(1);
  expect(errors('unknown')).toContain('accessReplay.as: unknown user \\"bbo\\" (did you mean \\"bob\\"?)');

  // What the server got, project by project: the test's requests, then the owner again and each replay, unsafe ones only when asked.
  const of = (prefix: string) => seen.filter((line) => line.includes(`/${prefix}/`));
  expect(of('safe')).toEqual([
    'GET /safe/notes/1?key=k3y-s3cret alice', 'POST /safe/notes alice {"text":"hi"}', 'other GET /safe/elsewhere',
    'GET /safe/notes/1?key=k3y-s3cret alice', 'GET /safe/notes/1?key=k3y-s3cret bob', 'GET /safe/notes/1?key=k3y-s3cret anonymous',
  ]);
  expect(of('unsafe')).toEqual([
    'GET /unsafe/notes/1?key=k3y-s3cret alice', 'POST /unsafe/notes alice {"text":"hi"}', 'other GET /unsafe/elsewhere',
    'GET /unsafe/notes/1?key=k3y-s3cret alice', 'GET /unsafe/notes/1?key=k3y-s3cret bob', 'GET /unsafe/notes/1?key=k3y-s3cret anonymous',
    'POST /unsafe/notes alice {"text":"hi"}', 'POST /unsafe/notes bob {"text":"hi"}', 'POST /unsafe/notes anonymous {"text":"hi"}',
  ]);
  expect(of('unknown')).toEqual([]);

  // The run's table: skipped counts, masked; the line.
  const table = readFileSync(join(result.dir, 'test-results', 'multiauth-access-replay.json'), 'utf8');
  const json = JSON.parse(table) as { findings: number; skipped: Record<string, number> };
  expect(json.findings).toBe(4);
  expect(json.skipped).toEqual({ unsafe: 2, out_of_scope: 3, assets: 0, over_limit: 0 });
  expect(result.output).toContain('multiauth: access replay: 4 requests replayed as bob, anonymous; 4 findings');
  for (const text of [table, readFileSync(join(result.dir, 'test-results', 'multiauth-access-replay.md'), 'utf8'), result.output]) {
    expect(text).not.toMatch(/s3cret/);
  }
});
