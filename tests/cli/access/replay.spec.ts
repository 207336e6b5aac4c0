import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runMain } from '../../support/cli-in-process.js';
import { STACK_FRAME } from '../../support/cli.js';
import { test, expect } from '../../support/demo.js';
import { harOfFetches } from '../../support/record-har.js';
import { ROOT } from '../../support/root.js';
import { startHttpServer, type RunningServer } from '../../support/servers/node-http.js';
import { removeTempDirs, tempDir } from '../../support/temp-files.js';

// Issue 38 item 5: `multiauth replay --har` replays alice's recorded session of the demo server as
// bob and anonymous (in-process; one demo server for the file). The demo's GET /api/orders/:id
// forgets whose order it is (the finding); GET /api/notices is public (no finding).
const CONFIG = join(ROOT, 'examples', 'access-replay', 'multiauth.yaml');

let elsewhere: RunningServer;
let elsewhereHits = 0;
test.beforeAll(async () => {
  // A third party the recording happened to call with alice's token: outside the scope, never replayed.
  elsewhere = await startHttpServer((_req, res) => {
    elsewhereHits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
test.afterAll(async () => {
  await elsewhere.close();
  removeTempDirs();
});

/** alice's session as a HAR: signs in, reads her orders, one order, the notices (also signed out), who she is; a POST; a call elsewhere. */
async function aliceHar(demoUrl: string, dir: string): Promise<{ file: string; token: string }> {
  const signIn = await fetch(`${demoUrl}/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password' }) });
  const token = ((await signIn.json()) as { data: { auth: { access_token: string } } }).data.auth.access_token;
  const bearer = { Authorization: `Bearer ${token}`, Accept: 'application/json', 'Accept-Encoding': 'gzip, br', Connection: 'keep-alive', 'If-None-Match': 'W/"17"' };
  const har = await harOfFetches([
    { method: 'POST', url: `${demoUrl}/auth/token`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password' }) },
    { url: `${demoUrl}/rec/api/orders`, headers: bearer },
    { url: `${demoUrl}/rec/api/orders/1001`, headers: bearer },
    { url: `${demoUrl}/rec/api/orders/1002`, headers: bearer },
    { url: `${demoUrl}/rec/api/notices`, headers: bearer },
    { url: `${demoUrl}/rec/api/notices?page=2` },
    { url: `${demoUrl}/rec/whoami`, headers: bearer },
    { method: 'POST', url: `${demoUrl}/rec/whoami`, headers: { ...bearer, 'Content-Type': 'application/json' }, body: '{"total":5}' },
    { url: `${elsewhere.url}/track`, headers: bearer },
  ]);
  const file = join(dir, 'alice.har');
  writeFileSync(file, JSON.stringify(har));
  return { file, token };
}

test('replays alice\'s recording as bob and anonymous: exactly the orders finding, the notices public, exit 1; no credential of alice\'s sent for bob', async ({ demo }) => {
  const dir = tempDir();
  const { token } = await aliceHar(demo.url, dir);
  demo.clear();
  elsewhereHits = 0;
  const env = { DEMO_URL: demo.url };
  const run = await runMain(['replay', '--har', 'alice.har', '--user', 'alice', '--as', 'bob', '-c', CONFIG, '--json'], { cwd: dir, env });
  expect(run.stderr).toBe("2 recorded requests carried no credentials of alice's: not replayed\n");
  expect(run.code).toBe(1);
  const report = JSON.parse(run.stdout) as {
    requests: Array<{ owner: string; method: string; url: string; pattern: string; status: number; replays: Record<string, { verdict: string; status?: number }>; findings: string[] }>;
    findings: number; skipped: Record<string, number>;
  };
  expect(report.findings).toBe(1);
  expect(report.skipped).toEqual({ unsafe: 1, out_of_scope: 1, assets: 0, over_limit: 0 });
  expect(report.requests.map((row) => `${row.method} ${row.url}`)).toEqual([
    `GET ${demo.url}/rec/api/orders/1001`,
    `GET ${demo.url}/rec/api/orders`,
    `GET ${demo.url}/rec/api/notices`,
    `GET ${demo.url}/rec/whoami`,
  ]);
  const [orders, list, notices, whoami] = report.requests;
  expect(orders).toEqual({
    owner: 'alice', method: 'GET', url: `${demo.url}/rec/api/orders/1001`, pattern: `GET ${demo.url}/rec/api/orders/{id}`, status: 200,
    replays: { bob: { verdict: 'same', status: 200 }, anonymous: { verdict: 'denied', status: 401 } }, findings: ['bob'],
  });
  expect(list?.replays).toEqual({ bob: { verdict: 'different', status: 200 }, anonymous: { verdict: 'denied', status: 401 } });
  expect(notices?.replays).toEqual({ bob: { verdict: 'same', status: 200 }, anonymous: { verdict: 'same', status: 200 } });
  expect(notices?.findings).toEqual([]);
  expect(whoami?.findings).toEqual([]);
  expect(Object.keys(orders ?? {})).toEqual(['owner', 'method', 'url', 'pattern', 'status', 'replays', 'findings']);

  // Each user signed in once; the third party was never called again; nothing unsafe was sent.
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1 });
  expect(elsewhereHits).toBe(0);
  expect(demo.seen.filter((seen) => seen.method !== 'GET')).toEqual([]);
  // Sent: alice again, bob, anonymous for each of the four; the request without credentials never.
  expect(demo.seen).toHaveLength(12);
  for (const seen of demo.seen) {
    expect(JSON.stringify(seen.headers)).not.toContain(token);
    expect(seen.headers['accept-encoding']).not.toBe('gzip, br');
    expect(seen.headers['if-none-match']).toBeUndefined();
    expect(seen.headers.accept).toBe('application/json');
  }
  const bobs = demo.seen.filter((seen) => String(seen.headers.cookie ?? '').includes('sid='));
  expect(bobs).toHaveLength(4);
  for (const seen of bobs) expect(seen.headers.authorization).toBeUndefined();
  expect(demo.seen.filter((seen) => seen.headers.cookie === undefined && seen.headers.authorization === undefined)).toHaveLength(4);
  for (const secret of [token, 'alice-password', 'bob-password']) expect(run.stdout).not.toContain(secret);
});

test('the table: the finding as a sentence first, then requests x users; anonymous named in --as is replayed once', async ({ demo }) => {
  demo.clear();
  const dir = tempDir();
  await aliceHar(demo.url, dir);
  const run = await runMain(['replay', '--har', 'alice.har', '--user', 'alice', '--as', 'bob,anonymous', '-c', CONFIG], { cwd: dir, env: { DEMO_URL: demo.url } });
  expect(run.stderr).toBe("2 recorded requests carried no credentials of alice's: not replayed\n");
  expect(run.code).toBe(1);
  expect(run.stdout).toBe([
    '# Access replay',
    '',
    '4 requests replayed as bob, anonymous; 1 finding.',
    '',
    "- bob gets alice's answer to GET /rec/api/orders/1001 (anonymous is denied): possible broken object-level authorization",
    '',
    '| request | owner | bob | anonymous |',
    '| --- | --- | --- | --- |',
    '| GET /rec/api/orders/1001 | alice 200 | **same 200** | denied 401 |',
    '| GET /rec/api/orders | alice 200 | different 200 | denied 401 |',
    '| GET /rec/api/notices | alice 200 | same 200 | same 200 |',
    '| GET /rec/whoami | alice 200 | different 200 | denied 401 |',
    '',
    'Not replayed: 1 unsafe, 1 out of scope, 0 assets, 0 over the bound.',
    '',
  ].join('\n'));
});

test('--unsafe replays the POST too, after the GETs recorded before it, as the owner first', async ({ demo }) => {
  const dir = tempDir();
  await aliceHar(demo.url, dir);
  demo.clear();
  const run = await runMain(['replay', '--har', 'alice.har', '--user', 'alice', '--as', 'bob', '-c', CONFIG, '--json', '--unsafe'], { cwd: dir, env: { DEMO_URL: demo.url } });
  const report = JSON.parse(run.stdout) as { requests: Array<{ method: string }>; skipped: Record<string, number> };
  expect(report.requests.map((row) => row.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'POST']);
  expect(report.skipped.unsafe).toBe(0);
  const posts = demo.seen.filter((seen) => seen.method === 'POST');
  expect(posts).toHaveLength(3);
  expect(demo.seen.indexOf(posts[0]!)).toBe(12);
});

test('mistakes are exit 2 with what to do, no stack: an unknown user names the known ones, a missing or invalid HAR, a missing option', async ({ demo }) => {
  demo.clear();
  const dir = tempDir();
  const env = { DEMO_URL: demo.url };
  writeFileSync(join(dir, 'not.har'), '{"log": {"entries": [{"request": {}}]}}');
  writeFileSync(join(dir, 'empty.har'), '{"log": {"entries": []}}');
  const cases: Array<[string[], RegExp]> = [
    [['--har', 'empty.har', '--user', 'alice', '--as', 'bbo'], /--as: no user named "bbo" \(did you mean "bob"\?\)\n {2}users: alice, bob, anonymous/],
    [['--har', 'empty.har', '--user', 'alcie', '--as', 'bob'], /no user named "alcie" \(did you mean "alice"\?\)/],
    [['--har', 'missing.har', '--user', 'alice', '--as', 'bob'], /missing\.har: no such file/],
    [['--har', 'not.har', '--user', 'alice', '--as', 'bob'], /not\.har: not a HAR: log\.entries\[0\]\.request\.method/],
    [['--user', 'alice', '--as', 'bob'], /replay needs --har/],
    [['--har', 'empty.har', '--user', 'alice', '--as', ' , '], /--as names no user/],
  ];
  for (const [args, message] of cases) {
    const run = await runMain(['replay', ...args, '-c', CONFIG], { cwd: dir, env });
    expect(run.code, args.join(' ')).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  }
  // Nobody signed in for a mistake.
  expect(demo.counters.signIns).toEqual({});
  const json = await runMain(['replay', '--har', 'missing.har', '--user', 'alice', '--as', 'bob', '-c', CONFIG, '--json'], { cwd: dir, env });
  expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'HAR_INVALID' } });
});

// Issue 38 item 4: `multiauth matrix --from-replay FILE [--update]` turns the replay's JSON into the
// access matrix, each finding a `deny` to review; the declared matrix then fails on it against the demo.
test('--from-replay prints the access block: observed verdicts, the finding written deny with its review comment', async ({ demo }) => {
  const dir = tempDir();
  await aliceHar(demo.url, dir);
  demo.clear();
  const replay = await runMain(['replay', '--har', 'alice.har', '--user', 'alice', '--as', 'bob', '-c', CONFIG, '--json'], { cwd: dir, env: { DEMO_URL: demo.url } });
  writeFileSync(join(dir, 'replay.json'), replay.stdout);
  const run = await runMain(['matrix', '--from-replay', 'replay.json'], { cwd: dir });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe([
    'access:',
    '  requests:',
    '    - name: GET /rec/api/orders/{id}',
    `      url: ${demo.url}/rec/api/orders/1001`,
    '    - name: GET /rec/api/orders',
    `      url: ${demo.url}/rec/api/orders`,
    '    - name: GET /rec/api/notices',
    `      url: ${demo.url}/rec/api/notices`,
    '    - name: GET /rec/whoami',
    `      url: ${demo.url}/rec/whoami`,
    '  expect:',
    '    alice:',
    '      GET /rec/api/orders/{id}: allow',
    '      GET /rec/api/orders: allow',
    '      GET /rec/api/notices: allow',
    '      GET /rec/whoami: allow',
    '    bob:',
    "      # review: bob got alice's answer to GET /rec/api/orders/1001 (anonymous denied)",
    '      GET /rec/api/orders/{id}: deny',
    '      GET /rec/api/orders: allow',
    '      GET /rec/api/notices: allow',
    '      GET /rec/whoami: allow',
    '    anonymous:',
    '      GET /rec/api/orders/{id}: deny',
    '      GET /rec/api/orders: deny',
    '      GET /rec/api/notices: allow',
    '      GET /rec/whoami: deny',
    '',
  ].join('\n'));
  const bad = await runMain(['matrix', '--from-replay', 'alice.har'], { cwd: dir });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/alice\.har: not an access replay report \(no "requests" list\)/);
});

test('--from-replay --update adds the block to the config keeping what is there; then the matrix fails on the finding alone', async ({ demo }) => {
  const dir = tempDir();
  await aliceHar(demo.url, dir);
  demo.clear();
  const replay = await runMain(['replay', '--har', 'alice.har', '--user', 'alice', '--as', 'bob', '-c', CONFIG, '--json'], { cwd: dir, env: { DEMO_URL: demo.url } });
  writeFileSync(join(dir, 'replay.json'), replay.stdout);
  const declared = [
    'access:',
    '  requests:',
    '    # the list of my orders',
    '    - { name: my orders, url: "${DEMO_URL}/api/orders" }',
    '  expect:',
    '    alice: allow    # reviewed',
    '    bob: { my orders: allow }',
    '    anonymous: deny',
    '',
  ].join('\n');
  const before = `${readFileSync(CONFIG, 'utf8')}\n${declared}`;
  writeFileSync(join(dir, 'multiauth.yaml'), before);
  const env = { DEMO_URL: demo.url };
  const update = await runMain(['matrix', '--from-replay', 'replay.json', '--update'], { cwd: dir, env });
  expect(update.stderr).toBe('added 4 requests of the replay to access of multiauth.yaml: review the lines marked "# review:" before committing\n');
  expect(update.code).toBe(0);
  const after = readFileSync(join(dir, 'multiauth.yaml'), 'utf8');
  // Everything before access, its comments, and the lines it had are kept as written.
  expect(after.startsWith(readFileSync(CONFIG, 'utf8'))).toBe(true);
  for (const line of declared.split('\n').filter((l) => l && !l.startsWith('    anonymous') && !l.startsWith('    bob'))) expect(after).toContain(line);
  expect(after).toContain("# review: bob got alice's answer to GET /rec/api/orders/1001 (anonymous denied)");
  expect(parse(after).access.expect).toEqual({
    alice: 'allow',
    bob: { 'my orders': 'allow', 'GET /rec/api/orders/{id}': 'deny', 'GET /rec/api/orders': 'allow', 'GET /rec/api/notices': 'allow', 'GET /rec/whoami': 'allow' },
    anonymous: { '*': 'deny', 'GET /rec/api/orders/{id}': 'deny', 'GET /rec/api/orders': 'deny', 'GET /rec/api/notices': 'allow', 'GET /rec/whoami': 'deny' },
  });
  // Added once: a second --update finds every request declared.
  const again = await runMain(['matrix', '--from-replay', 'replay.json', '--update'], { cwd: dir, env });
  expect(again.stderr).toMatch(/nothing added/);
  expect(readFileSync(join(dir, 'multiauth.yaml'), 'utf8')).toBe(after);

  const matrix = await runMain(['matrix'], { cwd: dir, env });
  expect(matrix.code).toBe(1);
  expect(matrix.stdout.split('\n').filter((line) => line.includes('unexpected'))).toEqual([
    'GET /rec/api/orders/{id}  allow 200  unexpected allow 200  deny 401',
    '15 cells: 14 as expected, 1 unexpected (1 unexpected allow)',
  ]);
  expect(matrix.stdout).toContain(`\nGET /rec/api/orders/{id}: bob was allowed to GET ${demo.url}/rec/api/orders/1001: expected deny — possible broken access control (HTTP 200)\n`);
});
