import { existsSync, lstatSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, type CliIo } from '../../src/cli/main.js';
import { test, expect } from '../support/demo.js';
import { startGraphql, type GraphqlServer } from '../support/servers/graphql.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { STACK_FRAME } from '../support/cli.js';
import { pageFetch, recordHar } from '../support/record-har.js';
import { CHROMIUM } from '../support/chromium.js';

// Issue 27, items 1 and 2: `multiauth draft --har FILE` against HARs Playwright recorded from the
// demo server's sign-ins. Each draft must validate and sign in unmodified (--check, the secret in
// the environment), and no recorded secret or token may appear in any file or output.

const PASSWORD = 'alice-password';
const CLIENT = { id: 'demo-api', secret: 'demo-api-secret' };

interface Recorded {
  file: string;
  /** Values of the recording that must appear nowhere: the password, tokens, cookies. */
  secrets: string[];
}

let dir: string;
let gql: GraphqlServer;
const hars: Record<string, Recorded> = {};

test.afterAll(async () => {
  await gql?.stop();
  removeTempDirs();
});

// One browser context per sign-in, all recorded once for the file.
test.beforeAll(async ({ browser, demo }) => {
  dir = tempDir();
  gql = await startGraphql({ users: { alice: PASSWORD } });
  const seen: string[] = [];
  const keep = (value: unknown) => {
    if (typeof value === 'string') seen.push(value);
    return value;
  };
  const start = (page: import('@playwright/test').Page) => page.goto(`${demo.url}/__counters`);

  hars.token = {
    file: await recordHar(browser, dir, 'token.har', async (page) => {
      await start(page);
      const body = (await pageFetch(page, '/auth/token', { method: 'POST', json: { username: 'alice', password: PASSWORD } })) as { data: { auth: { access_token: string; refresh_token: string } } };
      keep(body.data.auth.access_token);
      keep(body.data.auth.refresh_token);
      await pageFetch(page, '/whoami', { headers: { Authorization: `Bearer ${body.data.auth.access_token}` } });
    }),
    secrets: seen.splice(0),
  };
  hars.form = {
    file: await recordHar(browser, dir, 'form.har', async (page) => {
      await start(page);
      await pageFetch(page, '/auth/form-login', { method: 'POST', form: { username: 'alice', password: PASSWORD } });
      await pageFetch(page, '/whoami');
      for (const cookie of await page.context().cookies()) keep(cookie.value);
    }),
    secrets: seen.splice(0),
  };
  hars.csrf = {
    file: await recordHar(browser, dir, 'csrf.har', async (page) => {
      await start(page);
      const { csrf } = (await pageFetch(page, '/auth/csrf')) as { csrf: string };
      keep(csrf);
      const body = (await pageFetch(page, '/auth/csrf-login', { method: 'POST', json: { username: 'alice', password: PASSWORD, csrf } })) as { access_token: string };
      keep(body.access_token);
      await pageFetch(page, '/whoami', { headers: { Authorization: `Bearer ${body.access_token}` } });
      for (const cookie of await page.context().cookies()) keep(cookie.value);
    }),
    secrets: seen.splice(0),
  };
  hars.page = {
    file: await recordHar(browser, dir, 'page.har', async (page) => {
      await page.goto(`${demo.url}/login`);
      keep(await page.locator('input[name=csrf_token]').inputValue());
      await page.fill('#username', 'alice');
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForLoadState('networkidle');
      for (const cookie of await page.context().cookies()) keep(cookie.value);
    }),
    secrets: seen.splice(0),
  };
  hars.oauth = {
    file: await recordHar(browser, dir, 'oauth.har', async (page) => {
      await start(page);
      const body = (await pageFetch(page, '/oauth/token', {
        method: 'POST',
        form: { grant_type: 'password', username: 'alice', password: PASSWORD, client_id: CLIENT.id, client_secret: CLIENT.secret, scope: 'items:read' },
      })) as { access_token: string; refresh_token: string };
      keep(body.access_token);
      keep(body.refresh_token);
      await pageFetch(page, '/whoami', { headers: { Authorization: `Bearer ${body.access_token}` } });
    }),
    secrets: [...seen.splice(0), CLIENT.secret],
  };
  hars.basic = {
    file: await recordHar(browser, dir, 'basic.har', async (page) => {
      await start(page);
      const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
      keep(basic.slice('Basic '.length));
      await pageFetch(page, '/whoami', { headers: { Authorization: basic } });
      await pageFetch(page, '/admin/items', { headers: { Authorization: basic } });
    }),
    secrets: seen.splice(0),
  };
  hars.graphql = {
    file: await recordHar(browser, dir, 'graphql.har', async (page) => {
      await page.goto(`${gql.url}?probe=1`).catch(() => undefined);
      const query = 'mutation Login($username: String!, $password: String!) { login(username: $username, password: $password) { token refreshToken } }';
      const body = (await pageFetch(page, gql.url, { method: 'POST', json: { query, variables: { username: 'alice', password: PASSWORD } } })) as { data: { login: { token: string; refreshToken: string } } };
      keep(body.data.login.token);
      keep(body.data.login.refreshToken);
      await pageFetch(page, `${gql.url}?query=${encodeURIComponent('{ me { username } }')}`, { headers: { Authorization: `Bearer ${body.data.login.token}`, Accept: 'application/json' } });
    }),
    secrets: seen.splice(0),
  };
});

async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env, cwd };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

function expectNoSecrets(recorded: Recorded, texts: string[]): void {
  const secrets = [PASSWORD, ...recorded.secrets].filter((s) => s.length >= 6);
  expect(secrets.length).toBeGreaterThan(1);
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}

const CASES = [
  { name: 'token', form: 'http', has: ['key: data.auth.access_token', 'prefix: Bearer', '/whoami'] },
  { name: 'form', form: 'http', has: ['location: cookie', 'key: sid', 'application/x-www-form-urlencoded'] },
  { name: 'csrf', form: 'procedure', has: ['/auth/csrf', 'key: csrf', 'csrf: "{{csrf}}"'] },
  { name: 'page', form: 'procedure', has: ['regex:', 'csrf_token: "{{csrf_token}}"', '/app/token', 'key: access_token'] },
  { name: 'oauth', form: 'oauth_userpass', has: ['client_id: demo-api', 'client_secret: "${DEMO_API_CLIENT_SECRET}"', 'scopes: items:read'] },
  { name: 'basic', form: 'basic', has: ['type: basic', 'username: alice', 'password: "${ALICE_PASSWORD}"', 'url: http://127.0.0.1:'] },
  { name: 'graphql', form: 'graphql', has: ['type: graphql', 'key: data.login.token', 'password: "${ALICE_PASSWORD}"'] },
] as const;

for (const c of CASES) {
  test(`${c.name}: the draft validates and signs alice in unmodified (--check), no recorded secret anywhere`, async () => {
    const recorded = hars[c.name]!;
    const out = tempDir();
    const env: Record<string, string> = { ALICE_PASSWORD: PASSWORD, DEMO_API_CLIENT_SECRET: CLIENT.secret };
    const run = await cli(['draft', '--har', recorded.file, '--out', 'multiauth.yaml', '--check', '--json'], out, env);
    const result = JSON.parse(run.stdout) as { ok: boolean; form: string; user: string; env: string[]; evidence: string[]; todos: string[]; check: { ok: boolean } };
    expect(run.stderr).toBe('');
    expect(result.check).toMatchObject({ ok: true });
    expect(result.ok).toBe(true);
    expect(run.code).toBe(0);
    expect(result.form).toBe(c.form);
    expect(result.user).toBe('alice');
    expect(result.evidence.length).toBeGreaterThan(1);
    const yaml = readFileSync(join(out, 'multiauth.yaml'), 'utf8');
    for (const text of c.has) expect(yaml).toContain(text);
    const example = readFileSync(join(out, '.env.example'), 'utf8');
    expect(example).toContain('ALICE_PASSWORD=\n');
    // Without --write-env, no secret is written anywhere.
    expect(existsSync(join(out, '.env'))).toBe(false);
    expectNoSecrets(recorded, [yaml, example, run.stdout, run.stderr]);
  });
}

test('text output: the evidence of each decision, values masked; the check line of `multiauth check`', async () => {
  const out = tempDir();
  const run = await cli(['draft', '--har', hars.page!.file, '--check'], out, { ALICE_PASSWORD: PASSWORD });
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^- entry 1, POST http:\/\/127\.0\.0\.1:\d+\/login sends body csrf_token = page field "csrf_token" \(input value\) of the answer to entry 0, GET http:\/\/127\.0\.0\.1:\d+\/login -> \{\{csrf_token\}\}$/m);
  expect(run.stdout).toContain('wrote multiauth.yaml (a procedure, user "alice")');
  expect(run.stdout).toContain('wrote .env.example (ALICE_PASSWORD)');
  expect(run.stdout).toMatch(/^ok {4}alice {2}signed in by procedure "login", checked /m);
  expectNoSecrets(hars.page!, [run.stdout, run.stderr]);
});

test('--write-env writes the recorded secrets into .env (0600) so `check` runs at once; an existing .env is kept', async () => {
  const out = tempDir();
  const run = await cli(['draft', '--har', hars.oauth!.file, '--write-env', '--check', '--user', 'alice'], out);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('wrote .env with the recorded secrets (mode 0600)');
  expect(statSync(join(out, '.env')).mode & 0o777).toBe(0o600);
  expect(readFileSync(join(out, '.env'), 'utf8')).toContain(`DEMO_API_CLIENT_SECRET='${CLIENT.secret}'`);
  expectNoSecrets(hars.oauth!, [run.stdout, readFileSync(join(out, 'multiauth.yaml'), 'utf8')]);

  const other = tempDir();
  writeFileSync(join(other, '.env'), 'MINE=1\n');
  const again = await cli(['draft', '--har', hars.oauth!.file, '--write-env'], other);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain('.env exists and was left as it is');
  expect(readFileSync(join(other, '.env'), 'utf8')).toBe('MINE=1\n');
});

test('an existing --out is kept without --force; with --force a planted link is replaced, never written through', async () => {
  const out = tempDir();
  writeFileSync(join(out, 'multiauth.yaml'), 'mine\n');
  const refused = await cli(['draft', '--har', hars.token!.file], out);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('multiauth.yaml exists; it was left as it is');
  expect(refused.stderr).toContain('Recommended fix: Choose another file with --out FILE, or pass --force to replace it.');
  expect(readFileSync(join(out, 'multiauth.yaml'), 'utf8')).toBe('mine\n');

  const target = join(tempDir(), 'victim.txt');
  writeFileSync(target, 'victim\n');
  symlinkSync(target, join(out, 'linked.yaml'));
  const forced = await cli(['draft', '--har', hars.token!.file, '--out', 'linked.yaml', '--force'], out);
  expect(forced.code).toBe(0);
  expect(lstatSync(join(out, 'linked.yaml')).isSymbolicLink()).toBe(false);
  expect(readFileSync(target, 'utf8')).toBe('victim\n');
  expect(() => readlinkSync(join(out, 'linked.yaml'))).toThrow();
});

test('--webdriver: the login page\'s form typed into by a browser; the header the app then sent is injected; it signs in', async () => {
  const out = tempDir();
  const run = await cli(['draft', '--har', hars.page!.file, '--webdriver', '--check', '--json'], out, { ALICE_PASSWORD: PASSWORD, MULTIAUTH_BROWSER_PATH: CHROMIUM });
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as { form: string; check: { ok: boolean } };
  expect(result.form).toBe('webdriver');
  expect(result.check).toMatchObject({ ok: true });
  expect(run.code).toBe(0);
  const yaml = readFileSync(join(out, 'multiauth.yaml'), 'utf8');
  expect(yaml).toMatch(/command: open\n\s+target: http:\/\/127\.0\.0\.1:\d+\/login\n/);
  expect(yaml).toMatch(/target: name=password\n\s+value: "\{\{password\}\}"/);
  expect(yaml).toContain('target: css=form:has([name="password"]) [type=submit]');
  expect(yaml).toContain('target: request_url_contains=/whoami');
  expectNoSecrets(hars.page!, [yaml, run.stdout]);

  const notForm = await cli(['draft', '--har', hars.token!.file, '--webdriver', '--out', 'other.yaml'], out);
  expect(notForm.code).toBe(2);
  expect(notForm.stderr).toMatch(/no browser sign-in can be drafted from entry 1, POST http:\/\/127\.0\.0\.1:\d+\/auth\/token: the sign-in is not a form post/);
});

test('a sign-in the check refuses: exit 1, the failing step named, the wrong secret masked', async () => {
  const out = tempDir();
  const run = await cli(['draft', '--har', hars.csrf!.file, '--check'], out, { ALICE_PASSWORD: 'wrong-password-5521' });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^FAIL {2}alice {2}AUTH_HTTP_STATUS/m);
  expect(run.stderr).toContain('procedure "login"');
  expect(run.stderr).toMatch(/procedure "login", step 2 \(http\), POST http:\/\/127\.0\.0\.1:\d+\/auth\/csrf-login, HTTP 401/);
  expect(run.stderr).not.toContain('wrong-password-5521');
  expect(run.stderr).not.toMatch(STACK_FRAME);
});
