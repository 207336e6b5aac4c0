import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { main, type CliIo } from '../../src/cli/main.js';
import { exitCodeOf } from '../../src/cli/io.js';
import { test, expect } from '../support/demo.js';
import { recordHar } from '../support/record-har.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// Issue 35, item 5: a login page shaped like WordPress's, Redmine's and SimpleSAMLphp's (the demo
// server's /cms/login: a remember-me box before the login field, an absolute return URL in a
// hidden field, a hidden state written with `&amp;`, a session cookie set signed in or not, a
// home page that answers 200 to anyone), signed in to in Chromium and recorded by Playwright.

const PASSWORD = 'alice-password';
let har: string;

test.afterAll(removeTempDirs);

test.beforeAll(async ({ browser, demo }) => {
  har = await recordHar(browser, tempDir(), 'cms.har', async (page) => {
    await page.goto(`${demo.url}/cms/login`);
    await page.check('#autologin');
    await page.fill('#cms-username', 'alice');
    await page.fill('#cms-password', PASSWORD);
    await page.click('#cms-submit');
    await expect(page.getByText('Logged in as')).toBeVisible();
    // One signed-in page opened by the person, not only the one the sign-in redirected to.
    await page.goto(`${demo.url}/cms/`);
    await expect(page.getByText('Logged in as')).toBeVisible();
  });
});

async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env, cwd };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

test('the draft is written (no INTERNAL for the return URL), the login is the login field, the &amp; state is extracted, and --check signs in', async () => {
  const out = tempDir();
  const run = await cli(['draft', '--har', har, '--check', '--json'], out, { ALICE_PASSWORD: PASSWORD });
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as { ok: boolean; form: string; user: string; env: string[]; check: { ok: boolean } };
  expect(result).toMatchObject({ ok: true, form: 'procedure', user: 'alice', env: ['ALICE_PASSWORD'], check: { ok: true } });
  expect(run.code).toBe(0);
  const config = parse(readFileSync(join(out, 'multiauth.yaml'), 'utf8')) as Record<string, any>;
  const [page, post] = config.procedures[0].operations;
  expect(post.parameters.body).toEqual({ autologin: '1', username: '{{username}}', password: '{{password}}', back_url: '{{back_url}}', AuthState: '{{authstate}}' });
  expect(page.extractions.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['back_url', 'authstate']));
  expect(config.users).toEqual([{ name: 'alice', procedure: 'login', credentials: { username: 'alice', password: '${ALICE_PASSWORD}' } }]);
});

test('the session check tells signed in from signed out where the status does not: a wrong password fails the check', async ({ demo }) => {
  const out = tempDir();
  const drafted = await cli(['draft', '--har', har, '--json'], out);
  expect(drafted.code, drafted.stderr).toBe(0);
  const config = parse(readFileSync(join(out, 'multiauth.yaml'), 'utf8')) as Record<string, any>;
  expect(config.validation).toEqual({ url: `${demo.url}/cms/`, match: 'Log out', not_match: 'name="password"' });
  const wrong = await cli(['check', '-c', 'multiauth.yaml'], out, { ALICE_PASSWORD: 'not-alices-password' });
  expect(wrong.code).toBe(1);
  expect(wrong.stdout).toMatch(/^FAIL {2}alice /m);
  expect(wrong.stdout + wrong.stderr).not.toContain('not-alices-password');
});

test('a recording whose password the server refused with its form again (HTTP 200) is no sign-in, whatever page comes after', async ({ browser, demo }) => {
  const refused = await recordHar(browser, tempDir(), 'cms-wrong.har', async (page) => {
    await page.goto(`${demo.url}/cms/login`);
    await page.fill('#cms-username', 'alice');
    await page.fill('#cms-password', 'not-alices-password');
    await page.click('#cms-submit');
    await expect(page.getByRole('alert')).toContainText('incorrect');
    await page.goto(`${demo.url}/cms/`);
  });
  const run = await cli(['draft', '--har', refused], tempDir(), { ALICE_PASSWORD: 'not-alices-password' });
  expect(run.stderr).toMatch(/no sign-in found in \d+ recorded requests \(the server refused the attempt at entry \d+, POST http:\/\/127\.0\.0\.1:\d+\/cms\/login with HTTP 200\)/);
  expect(run.stderr).toContain('[DRAFT_NO_SIGN_IN]');
  expect(run.code).toBe(2);
});

test('an internal error exits 70, as docs/cli.md says', () => {
  expect(exitCodeOf('INTERNAL')).toBe(70);
});
