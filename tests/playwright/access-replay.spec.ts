import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInlineProject, inlineConfig } from '../support/inline-project.js';
import { startHttpServer, readBody, type RunningServer } from '../support/servers/node-http.js';

// Issue 38: accessReplay's options in one child run, a project each: `fail`, `unsafe` (and its
// absence), an unknown user of `as`, the scope's origins, the pace (`rate`), the time budgets per
// test and per run (`maxTime`), one replay per run across worker processes (each project runs in
// its own: `shared` and `safe` stand for two workers); users with static headers, one server.
const TOKENS: Record<string, string> = { 'tok-alice-s3cret': 'alice', 'tok-bob-s3cret': 'bob' };

let app: RunningServer;
let other: RunningServer;
const seen: string[] = [];
/** When each request of the paced project arrived. */
const paced: Array<{ line: string; at: number }> = [];

test.beforeAll(async () => {
  app = await startHttpServer(async (req, res) => {
    const who = TOKENS[String(req.headers['x-token'] ?? '')] ?? 'anonymous';
    const body = await readBody(req);
    seen.push(`${req.method} ${req.url} ${who}${body ? ` ${body}` : ''}`);
    if (req.url?.startsWith('/paced/')) paced.push({ line: `${req.method} ${req.url} ${who}`, at: performance.now() });
    // The time budgets' projects: each answer takes 300 ms, a replay of one request (owner, bob, anonymous) 900 ms.
    if (req.url?.startsWith('/timed/')) await new Promise((resolve) => setTimeout(resolve, 300));
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

test('fail names the findings once; unsafe methods only when asked, after the safe ones; other origins never; an unknown user is named; paced, bounded in time, once per run', async () => {
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
  expect((await authedRequest.post('/${prefix}/notes', { data: { text: 'hi' } })).status()).toBe(200);
  expect((await authedRequest.get('/${prefix}/notes/1?key=k3y-s3cret')).status()).toBe(200);
  expect((await authedRequest.get('${other.url}/${prefix}/elsewhere')).status()).toBe(200);
});
`;
  const gets = (name: string, paths: string[], replay = '') => `import { test, expect } from 'playwright-multiauth';
${replay ? `test.use({ accessReplay: ${replay} });` : ''}
test('${name}', async ({ authedRequest }) => {
  for (const path of ${JSON.stringify(paths)}) expect((await authedRequest.get(path)).status()).toBe(200);
});
`;
  const project = (name: string, replay: string) => `{ name: '${name}', testMatch: '${name}.spec.ts', use: { authUser: 'alice', accessReplay: ${replay} } }`;
  const result = await runInlineProject({
    'multiauth.yaml': config,
    'playwright.config.ts': inlineConfig(`workers: 1, projects: [${[
      project('fail', "{ as: ['bob'], fail: true }"),
      project('unsafe', "{ as: ['bob'], unsafe: true }"),
      // Test files of one project share its workers; each sets its own options.
      `{ name: 'safe', testMatch: ['safe.spec.ts', 'shared-a.spec.ts', 'paced.spec.ts', 'timed.spec.ts'], use: { authUser: 'alice', accessReplay: { as: ['bob'] } } }`,
      project('unknown', "{ as: ['bbo'] }"),
      project('shared', "{ as: ['bob'] }"),
    ].join(', ')}],`),
    'fail.spec.ts': spec('fail'),
    'unsafe.spec.ts': spec('unsafe'),
    'safe.spec.ts': spec('safe'),
    'unknown.spec.ts': spec('unknown'),
    'shared-a.spec.ts': gets('shared-a', ['/shared/notes/1']),
    'shared.spec.ts': gets('shared', ['/shared/notes/2']),
    'paced.spec.ts': gets('paced', ['/paced/a', '/paced/b'], "{ as: ['bob'], rate: 5 }"),
    // The run's budget is read after the first test of the file spent its own (a file's tests run in order, in one worker).
    'timed.spec.ts': `import { test, expect } from 'playwright-multiauth';
test.describe(() => {
  test.use({ accessReplay: { as: ['bob'], maxTime: { test: 0.5 } } });
  test('timed', async ({ authedRequest }) => {
    for (const path of ['/timed/a', '/timed/b', '/timed/c']) expect((await authedRequest.get(path)).status()).toBe(200);
  });
});
test.describe(() => {
  test.use({ accessReplay: { as: ['bob'], maxTime: { run: 0.5 } } });
  test('run-bound', async ({ authedRequest }) => {
    expect((await authedRequest.get('/timed/run')).status()).toBe(200);
  });
});
`,
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
    'POST /safe/notes alice {"text":"hi"}', 'GET /safe/notes/1?key=k3y-s3cret alice', 'other GET /safe/elsewhere',
    'GET /safe/notes/1?key=k3y-s3cret alice', 'GET /safe/notes/1?key=k3y-s3cret bob', 'GET /safe/notes/1?key=k3y-s3cret anonymous',
  ]);
  // The test sent its POST first; it is replayed after every safe request.
  expect(of('unsafe')).toEqual([
    'POST /unsafe/notes alice {"text":"hi"}', 'GET /unsafe/notes/1?key=k3y-s3cret alice', 'other GET /unsafe/elsewhere',
    'GET /unsafe/notes/1?key=k3y-s3cret alice', 'GET /unsafe/notes/1?key=k3y-s3cret bob', 'GET /unsafe/notes/1?key=k3y-s3cret anonymous',
    'POST /unsafe/notes alice {"text":"hi"}', 'POST /unsafe/notes bob {"text":"hi"}', 'POST /unsafe/notes anonymous {"text":"hi"}',
  ]);
  expect(of('unknown')).toEqual([]);
  // GET /shared/notes/{id}, sent as alice by two worker processes (projects safe and shared): replayed once in the run.
  expect(of('shared').filter((line) => line.endsWith(' bob'))).toHaveLength(1);
  expect(of('shared')).toHaveLength(2 + 3);
  // rate: 5 a second: the six replays (the owner's, bob's and anonymous's, of both requests) start
  // 200 ms apart, 1 s from the first to the last; they arrive as the network carries them (the
  // first may be late by a connection and a module loaded): 700 ms apart at least (unpaced: tens of ms).
  const replays = paced.slice(2);
  expect(replays.map((r) => r.line)).toEqual(['GET /paced/a alice', 'GET /paced/a bob', 'GET /paced/a anonymous', 'GET /paced/b alice', 'GET /paced/b bob', 'GET /paced/b anonymous']);
  const gaps = replays.slice(1).map((r, i) => Math.round(r.at - replays[i]!.at));
  expect(replays.at(-1)!.at - replays[0]!.at, `gaps: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(700);
  // maxTime.test 0.5 s: the first request's replay takes 900 ms, the two others are not replayed;
  // maxTime.run 0.5 s, after the run spent more replaying: nothing is replayed.
  expect(of('timed')).toEqual([
    'GET /timed/a alice', 'GET /timed/b alice', 'GET /timed/c alice',
    'GET /timed/a alice', 'GET /timed/a bob', 'GET /timed/a anonymous',
    'GET /timed/run alice',
  ]);

  // The run's table: skipped counts, masked; the line.
  const table = readFileSync(join(result.dir, 'test-results', 'multiauth-access-replay.json'), 'utf8');
  const json = JSON.parse(table) as { findings: number; skipped: Record<string, number> };
  expect(json.findings).toBe(8);
  expect(json.skipped).toEqual({ unsafe: 2, out_of_scope: 3, assets: 0, over_limit: 3 });
  expect(result.output).toContain('multiauth: access replay: 8 requests replayed as bob, anonymous; 8 findings');
  for (const text of [table, readFileSync(join(result.dir, 'test-results', 'multiauth-access-replay.md'), 'utf8'), result.output]) {
    expect(text).not.toMatch(/s3cret/);
  }
});
