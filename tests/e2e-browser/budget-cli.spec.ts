import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCliAsync, STACK_FRAME } from '../support/cli.js';
import { ROOT } from '../support/root.js';
import { startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { writeTempConfig } from '../support/temp-files.js';
import { CHROMIUM } from '../support/chromium.js';
import { expect, test } from './support.js';

// Issue 23, item 4: three nested `times` of 1000 (each loop within its own bound) spun 10^9 rounds
// of commands that never wait for the page: `multiauth login` ignored SIGTERM and ran for hours.


test.describe.configure({ timeout: 240_000 });

/** A webdriver user whose recorded test opens `url`, then runs three nested times of 1000. */
function nestedTimes(url: string): string {
  return `
presets:
  - type: webdriver
    wait_for_seconds: 10
    users:
      - username: alice
        password: alice-password
        project:
          tests:
            - id: t
              name: sign in
              commands:
                - { id: c1, command: open, target: "${url}/" }
                - { id: c2, command: times, target: "1000" }
                - { id: c3, command: times, target: "1000" }
                - { id: c4, command: times, target: "1000" }
                - { id: c5, command: store, target: "x", value: y }
                - { id: c6, command: end, target: "" }
                - { id: c7, command: end, target: "" }
                - { id: c8, command: end, target: "" }
`;
}

let site: RunningServer;
const opened: Array<() => void> = [];

test.beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'runtime', 'protocols', 'browser', 'budget.cjs'))) {
    throw new Error('dist/ has no browser budget: run `npm run build` first (npm test does)');
  }
  site = await startHttpServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>loop</title>');
    for (const resolve of opened.splice(0)) resolve();
  });
});

test.afterAll(async () => {
  await site?.close();
});

test('multiauth login on three nested times of 1000 stops at the budget: exit 1, located, no stack', async () => {
  const { file, remove } = writeTempConfig(nestedTimes(site.url));
  try {
    const run = await runCliAsync(['login', 'alice', '-c', file, '--browser-path', CHROMIUM], { timeoutMs: 200_000 });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^test "sign in", command [2-8] \(\w+[^)]*\): the browser operation ran 100000 commands and loop rounds and would run more/);
    expect(run.stderr).toMatch(/while signing in user "alice", procedure "preset\[0\]:webdriver:alice", step 1 \(browser command [2-8] \(\w+\)\)/);
    expect(run.stderr).toContain('Recommended fix: The browser operation did more than a sign-in needs');
    expect(run.stderr).toContain('[BROWSER_STEP_FAILED]');
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stderr).not.toContain('alice-password');
  } finally {
    remove();
  }
});

test('SIGTERM during the loop ends multiauth login at once: the loop lets the signal in', async () => {
  const { file, remove } = writeTempConfig(nestedTimes(site.url));
  const pageOpened = new Promise<void>((resolve) => opened.push(resolve));
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'multiauth.js'), 'login', 'alice', '-c', file, '--browser-path', CHROMIUM], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  try {
    await pageOpened;
    // The page is loaded and the loop spinning (its 100000 rounds take seconds, even on a fast machine).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = Date.now();
    child.kill('SIGTERM');
    const ended = await Promise.race([exited, new Promise<undefined>((resolve) => setTimeout(resolve, 20_000))]);
    expect(ended, 'multiauth login did not exit within 20 s of SIGTERM').toBeDefined();
    expect(Date.now() - sent).toBeLessThan(20_000);
    // Playwright's handler closed the browser; the next command found its window closed.
    expect(stderr).toContain('the selected window has been closed');
    expect(stderr).not.toContain('would run more');
    expect(ended?.code).toBe(1);
  } finally {
    child.kill('SIGKILL');
    remove();
  }
});
