import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SHORT_WAIT, c, expect, failure, failureAfterOpen, op, test } from './support.js';

const SECRET = 'hunter2-secret-value';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

test.describe('a failing command', () => {
  let dir: string;
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'multiauth-shots-'));
  });
  test.afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('names the test, command index, command, target and cause, with a screenshot, and never the typed value', async ({ context, pages }) => {
    const error = await failure(
      context,
      op([c('open', `${pages.url}/form.html`), c('type', 'id=password', '{{password}}'), c('click', 'id=missing')], { wait: 1 }),
      { password: SECRET },
      { screenshotDir: dir },
    );
    expect(error.code).toBe('BROWSER_STEP_FAILED');
    expect(error.message).toMatch(
      /^test "sign in", command 3 \(click "id=missing"\): no element matches the target within 1s; screenshot: (.+\.png)$/,
    );
    const path = /screenshot: (.+\.png)$/.exec(error.message)?.[1] ?? '';
    expect(path.startsWith(dir)).toBe(true);
    expect(readFileSync(path).subarray(0, 4)).toEqual(PNG);
    const text = error.render?.() ?? '';
    expect(text).toContain('while signing in user "alice", procedure "login", step 1 (browser command 3 (click))');
    expect(text).toContain(`${pages.url}/form.html`);
    expect(text).toContain('Recommended fix: Check the locator');
    expect(text).not.toContain(SECRET);
  });

  test('masks the typed value even when Playwright would show it, without help from the redactor', async ({ context, pages }) => {
    const error = await failureAfterOpen(
      context,
      `${pages.url}/controls.html`,
      [c('type', 'id=disabled', '{{password}}'), c('sendKeys', 'id=keys', 'x')],
      SHORT_WAIT,
      { password: SECRET },
      { screenshotDir: dir },
    );
    expect(error.message).toContain('command 1 (type "id=disabled")');
    expect(error.message).toMatch(/Timeout \d+ms exceeded/);
    expect(`${error.message}\n${error.render?.()}`).not.toContain(SECRET);
    const keys = await failureAfterOpen(
      context,
      `${pages.url}/controls.html`,
      [c('sendKeys', 'id=disabled', '{{password}}${KEY_ENTER}')],
      SHORT_WAIT,
      { password: SECRET },
      { screenshotDir: dir },
    );
    expect(keys.message).toContain('command 1 (sendKeys "id=disabled")');
    expect(`${keys.message}\n${keys.render?.()}`).not.toContain(SECRET);
  });

  test('passes page text through the redactor: a secret shown by the page is masked', async ({ context, pages }) => {
    const error = await failureAfterOpen(
      context,
      `${pages.url}/form.html`,
      [c('type', 'id=username', '{{password}}'), c('assertValue', 'id=username', 'alice')],
      1,
      { password: SECRET },
      { secrets: [SECRET], screenshotDir: dir },
    );
    expect(error.message).toContain('command 2 (assertValue "id=username")');
    expect(error.message).toContain('actual: "********"');
    expect(error.message).not.toContain(SECRET);
  });
});

test('screenshots go to test-results/multiauth/ by default', async ({ context, pages }) => {
  const error = await failureAfterOpen(context, `${pages.url}/form.html`, [c('click', 'id=missing')], SHORT_WAIT);
  const path = /screenshot: (.+\.png)$/.exec(error.message)?.[1] ?? '';
  expect(path.startsWith(resolve('test-results', 'multiauth'))).toBe(true);
  expect(existsSync(path)).toBe(true);
  rmSync(path);
});

test('an unknown variable fails before the command runs, naming it and the command path', async ({ context, pages }) => {
  const error = await failure(context, op([c('open', `${pages.url}/form.html`), c('type', 'id=username', '${usr}')]), { user: 'alice' });
  expect(error.code).toBe('TEMPLATE_UNKNOWN_VARIABLE');
  expect(error.message).toBe('unknown variable ${usr}');
  expect((error as unknown as { path: unknown[] }).path).toEqual([
    'procedures', 0, 'operations', 0, 'parameters', 'project', 'tests', 0, 'commands', 1, 'value',
  ]);
});

test('an unknown command at run time is BROWSER_UNKNOWN_COMMAND', async ({ context, pages }) => {
  const error = await failure(context, op([c('open', `${pages.url}/form.html`), c('clik', 'id=go')]));
  expect(error.code).toBe('BROWSER_UNKNOWN_COMMAND');
  expect(error.message).toBe('test "sign in", command 2: unknown command "clik"');
});

test('a site that cannot be reached says so', async ({ context }) => {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  const url = `http://127.0.0.1:${port}/login`;
  const error = await failure(context, op([c('open', url)], { wait: 5 }));
  expect(error.message.startsWith(`test "sign in", command 1 (open "${url}"): net::ERR_CONNECTION_REFUSED`)).toBe(true);
  expect(error.render?.()).toContain('Recommended fix: Check that the site is reachable from this machine');
});

test('a failure on a URL that carries an authorization code shows the URL without its query values', async ({ context, pages }) => {
  const code = 'unredeemed-code-4711';
  const url = `${pages.url}/welcome.html?code=${code}&state=st-1#frag-secret`;
  const error = await failureAfterOpen(context, url, [c('assertTitle', 'Nope')], SHORT_WAIT);
  const text = `${error.message}\n${error.render?.()}`;
  expect(text).toContain(`${pages.url}/welcome.html?code=…&state=…`);
  for (const secret of [code, 'st-1', 'frag-secret']) expect(text).not.toContain(secret);
  // The command's own target is cut the same way: `open` of a callback URL names no code either.
  const opened = await failure(context, op([c('open', url), c('click', 'id=missing')], { wait: 1 }));
  expect(opened.message).toContain('command 2 (click "id=missing")');
  expect(`${opened.message}\n${opened.render?.()}`).not.toContain(code);
});
