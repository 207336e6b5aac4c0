import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MASK } from '../../src/core/redactor.js';
import { runCliAsync } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { ROOT } from '../support/root.js';
import { writeTempConfig } from '../support/temp-files.js';
import { whoami } from '../support/whoami.js';
import type { Session } from '../../src/runtime/session/session.js';
import { webdriverExample } from '../support/examples.js';
import { CHROMIUM } from '../support/chromium.js';
import { expect, test } from './support.js';


test.beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'runtime', 'protocols', 'browser', 'launch.cjs'))) {
    throw new Error('dist/ has no browser runner: run `npm run build` first (npm test does)');
  }
});

test('multiauth login runs the webdriver example in the browser of --browser-path', async ({ demo }) => {
  const { file, remove } = writeTempConfig(webdriverExample(demo.url));
  try {
    // The plain and the --json --reveal login side by side: two sign-ins of alice, neither reading the other's.
    // The plain one is the real bin's; the others run in this process (runMain), a Node child less each.
    const [run, revealed] = await Promise.all([
      runCliAsync(['login', 'alice', '-c', file, '--browser-path', CHROMIUM]),
      runMain(['login', 'alice', '-c', file, '--json', '--reveal'], { env: { MULTIAUTH_BROWSER_PATH: CHROMIUM } }),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^user: +alice$/m);
    expect(run.stdout).toContain(`Authorization: Bearer ${MASK}`);
    expect(run.stdout).toContain(`sid=${MASK}`);
    expect(run.stdout).not.toMatch(/eyJ[\w-]+\./);
    expect(run.stdout).not.toContain('alice-password');

    expect(revealed.code).toBe(0);
    const session = JSON.parse(revealed.stdout) as Pick<Session, 'headers' | 'cookies'>;
    expect(session.cookies.map((cookie) => cookie.name)).toContain('sid');
    const asApi = { ...session, user: 'alice', query: {}, body: { set: {} }, origins: [], createdAt: 0, expiresAt: null, variables: {}, origin: 'signed-in' as const };
    expect(await whoami(demo.url, asApi)).toEqual({ status: 200, user: 'alice', via: 'header', role: 'admin' });
  } finally {
    remove();
  }
});

test('multiauth login exits 1 when the browser sign-in fails, without the typed password', async ({ demo }) => {
  const { file, remove } = writeTempConfig(webdriverExample(demo.url).replace('value: bob-password', 'value: wrong-bob-pass').replace(/value: "10000"/g, 'value: "1500"'));
  try {
    const run = await runMain(['login', 'bob', '-c', file, '--browser-path', CHROMIUM]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('test "sign in as bob", command 5 (waitForElementPresent "css=[data-signed-in]")');
    expect(run.stderr).toContain('[BROWSER_STEP_FAILED]');
    expect(run.stderr).not.toContain('wrong-bob-pass');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  } finally {
    remove();
  }
});

test('multiauth login says which browser path is missing (exit 2)', async ({ demo }) => {
  const { file, remove } = writeTempConfig(webdriverExample(demo.url));
  try {
    const run = await runMain(['login', 'alice', '-c', file, '--browser-path', '/nonexistent/chromium']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no browser at /nonexistent/chromium');
  } finally {
    remove();
  }
});
