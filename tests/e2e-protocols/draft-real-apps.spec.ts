import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Browser } from '@playwright/test';
import { parse } from 'yaml';
import { runCliAsync, STACK_FRAME } from '../support/cli.js';
import { recordDjangoSignIn, recordJupyterSignIn, recordNodeRedApiSignIn, recordNodeRedSignIn } from '../support/real-app-hars.js';
import { startDjango, type DjangoServer } from '../support/servers/django.js';
import { startJupyter, type JupyterServer } from '../support/servers/jupyter.js';
import { startNodeRed, type NodeRedServer } from '../support/servers/node-red.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// Issue 27, "Done when": a HAR of a person's sign-in to an application nobody here wrote, recorded
// by Playwright, gives a draft that validates and signs in with no edit but the secret values.
// One server per app; each app's test records once, drafts once, validates and checks once.

test.afterAll(removeTempDirs);

/** What one trial needs from an app: its recording, and the one secret a person types. */
interface Trial {
  /** Records the sign-in into a HAR in `dir`; its path. */
  record(browser: Browser, dir: string): Promise<string>;
  password: string;
  /** The form the draft should take (`multiauth draft --json`'s `form`): the compact one where one says it. */
  form: string;
  /** Whether the sign-in's answer says how long the session lasts (`expires_in`), so `check` prints when it expires. */
  expires: boolean;
}

/**
 * Values in the HAR that a draft must never hold: cookies the app set, `Authorization` credentials
 * sent, string fields named like tokens in JSON answers, hidden inputs' values.
 */
function recordedSecrets(harText: string): string[] {
  const har = JSON.parse(harText) as { log: { entries: HarEntry[] } };
  const found = new Set<string>();
  for (const entry of har.log.entries) {
    for (const cookie of entry.response.cookies ?? []) found.add(cookie.value);
    for (const header of entry.request.headers) {
      if (/^(authorization|x-xsrftoken|x-csrftoken)$/i.test(header.name)) found.add(header.value.replace(/^\w+\s+/, ''));
    }
    const text = entry.response.content?.text ?? '';
    if (/json/.test(entry.response.content?.mimeType ?? '')) {
      for (const match of text.matchAll(/"(\w*token\w*)"\s*:\s*"([^"]{8,})"/gi)) found.add(match[2] as string);
    }
    for (const match of text.matchAll(/type="hidden" name="(?:csrfmiddlewaretoken|_xsrf)" value="([^"]{8,})"/g)) found.add(match[1] as string);
  }
  return [...found].filter((value) => value.length >= 8);
}

interface HarEntry {
  request: { headers: { name: string; value: string }[] };
  response: { cookies?: { value: string }[]; content?: { mimeType?: string; text?: string } };
}

/** The `${NAME}`s of `.env.example`. */
function envNames(text: string): string[] {
  return [...text.matchAll(/^\s*#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] as string);
}

/** Every `validation` object of a parsed config, wherever it is written. */
function validations(node: unknown, out: { url: string; status?: number | number[]; match?: string; not_match?: string }[] = []): typeof out {
  if (Array.isArray(node)) for (const item of node) validations(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'validation' && value && typeof value === 'object' && 'url' in value) out.push(value as (typeof out)[number]);
      else validations(value, out);
    }
  }
  return out;
}

/** Whether an answer passes a check as `multiauth check` reads it (status, then match / not_match). */
function passes(check: ReturnType<typeof validations>[number], status: number, body: string): boolean {
  const accepted = check.status === undefined ? status >= 200 && status < 300 : [check.status].flat().includes(status);
  if (!accepted) return false;
  if (check.match !== undefined && !new RegExp(check.match).test(body)) return false;
  if (check.not_match !== undefined && new RegExp(check.not_match).test(body)) return false;
  return true;
}

/** Records, drafts, validates and checks; the draft is attached to the test's report. */
async function trial(browser: Browser, app: Trial): Promise<void> {
  const dir = tempDir();
  const har = await app.record(browser, dir);
  const harText = readFileSync(har, 'utf8');
  const secrets = [app.password, ...recordedSecrets(harText)];
  expect(secrets.length).toBeGreaterThan(1);

  const drafted = await runCliAsync(['draft', '--har', har, '--out', 'multiauth.yaml', '--json'], { cwd: dir, timeoutMs: 60_000 });
  const draft = readFileSync(join(dir, 'multiauth.yaml'), 'utf8');
  const example = readFileSync(join(dir, '.env.example'), 'utf8');
  await test.info().attach('multiauth.yaml', { body: draft, contentType: 'text/yaml' });
  expect(drafted.code, drafted.stderr).toBe(0);
  expect(drafted.stderr).not.toMatch(STACK_FRAME);
  expect((JSON.parse(drafted.stdout) as { form: string }).form).toBe(app.form);
  for (const text of [draft, example, drafted.stdout, drafted.stderr]) {
    for (const secret of secrets) expect(text).not.toContain(secret);
  }

  // Only the secret a person typed may be asked for: no edit but the secret values.
  const names = envNames(example);
  expect(names.length).toBeGreaterThan(0);
  const env = Object.fromEntries(names.map((name) => [name, app.password]));
  expect(names.every((name) => /PASSWORD/.test(name)), `.env.example asks for ${names.join(', ')}`).toBe(true);

  const validated = await runCliAsync(['validate', '-c', 'multiauth.yaml'], { cwd: dir, env, timeoutMs: 30_000 });
  expect(validated.code, validated.stdout + validated.stderr).toBe(0);

  // The draft's session check must be one an anonymous visitor fails, or a pass proves nothing.
  const checks = validations(parse(draft));
  expect(checks.length, draft).toBeGreaterThan(0);
  for (const check of checks) {
    const anonymous = await fetch(check.url, { redirect: 'manual' });
    expect(passes(check, anonymous.status, await anonymous.text()), `${check.url} passes without a session`).toBe(false);
  }

  const checked = await runCliAsync(['check', '-c', 'multiauth.yaml'], { cwd: dir, env, timeoutMs: 60_000 });
  expect(checked.code, `${draft}\n${checked.stdout}${checked.stderr}`).toBe(0);
  expect(checked.stdout).toContain('checked');
  expect(checked.stdout).toMatch(app.expires ? /expires \d{4}-\d\d-\d\dT/ : /expires never/);
  for (const secret of secrets) expect(checked.stdout + checked.stderr).not.toContain(secret);
}

test.describe("Debian's Django admin: form, CSRF hidden input and cookie, sessionid", () => {
  let django: DjangoServer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    django = await startDjango();
  });
  test.afterAll(async () => django?.stop());

  test('a recorded admin sign-in drafts a config that signs in with only the password supplied', async ({ browser }) => {
    test.setTimeout(120_000);
    await trial(browser, { record: (b, dir) => recordDjangoSignIn(b, django, dir), password: django.password, form: 'procedure', expires: false });
  });
});

test.describe("Debian's Jupyter Notebook: password form, _xsrf, X-XSRFToken", () => {
  let jupyter: JupyterServer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    jupyter = await startJupyter();
  });
  test.afterAll(async () => jupyter?.stop());

  test('a recorded notebook sign-in drafts a config that signs in with only the password supplied', async ({ browser }) => {
    test.setTimeout(120_000);
    await trial(browser, { record: (b, dir) => recordJupyterSignIn(b, jupyter, dir), password: jupyter.password, form: 'procedure', expires: false });
  });
});

test.describe("Node-RED (npm): OAuth password grant at /auth/token, Bearer", () => {
  // Both recordings in one worker, against one Node-RED.
  test.describe.configure({ mode: 'default' });
  let red: NodeRedServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    red = await startNodeRed();
  });
  test.afterAll(async () => red?.stop());

  test('a recorded editor sign-in drafts a config that signs in with only the password supplied', async ({ browser }) => {
    test.setTimeout(120_000);
    await trial(browser, { record: (b, dir) => recordNodeRedSignIn(b, red, dir), password: red.password, form: 'procedure', expires: true });
  });

  test('a recorded JSON sign-in to its admin API drafts a config that signs in with only the password supplied', async ({ browser }) => {
    test.setTimeout(120_000);
    await trial(browser, { record: (b, dir) => recordNodeRedApiSignIn(b, red, dir), password: red.password, form: 'oauth_userpass', expires: true });
  });
});
