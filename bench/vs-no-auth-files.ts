import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { BROWSER, BROWSER_PATHS, sharedConfig, specs, usersOf, writeCommon, type Side, type SuiteShape } from './vs-setup-project-files.js';

/** What one user of the no-auth side is handed: a Bearer token, or a browser's storage state file. */
export type KnownSession = { token: string } | { storageState: string };

const chromiumPath = [process.env.MULTIAUTH_BROWSER_PATH, ...BROWSER_PATHS].find((p): p is string => !!p && existsSync(p));

/**
 * Every user's session, made once before the timed runs and never again: API users' tokens from the
 * demo's token endpoint, browser users' cookies from one sign-in on its login page, saved as
 * Playwright's own `storageState` files in `dir` (absolute paths; not the side's folder, which
 * the side empties when it is written).
 *
 * @example
 * const sessions = await makeSessions(dir, HEADLINE, demo.url);
 */
export async function makeSessions(dir: string, shape: SuiteShape, baseUrl: string): Promise<Record<string, KnownSession>> {
  const users = usersOf(shape);
  const sessions: Record<string, KnownSession> = {};
  mkdirSync(dir, { recursive: true });
  for (const user of users.filter((u) => !u.browser)) {
    const answer = await fetch(`${baseUrl}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user.account, password: `${user.account}-password` }) });
    if (!answer.ok) throw new Error(`no-auth side: the token endpoint answered ${answer.status} for ${user.name}`);
    sessions[user.name] = { token: ((await answer.json()) as { data: { auth: { access_token: string } } }).data.auth.access_token };
  }
  const web = users.filter((u) => u.browser);
  if (web.length) {
    const browser = await chromium.launch(chromiumPath ? { executablePath: chromiumPath } : {});
    try {
      for (const user of web) {
        const context = await browser.newContext({ baseURL: baseUrl });
        const page = await context.newPage();
        await page.goto('/login');
        await page.getByLabel('Username').fill(user.account);
        await page.getByLabel('Password').fill(`${user.account}-password`);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL('**/app');
        await page.locator('[data-signed-in]').waitFor({ state: 'attached' });
        const file = join(dir, `${user.name}.json`);
        await context.storageState({ path: file });
        sessions[user.name] = { storageState: file };
        await context.close();
      }
    } finally {
      await browser.close();
    }
  }
  return sessions;
}

/**
 * The physical limit (issue 39): the same suite with authentication costing nothing. Every user's
 * session is known in advance ({@link makeSessions}) and handed to the tests as plain Playwright
 * options, one project per user: `extraHTTPHeaders` with the Bearer token, or `storageState` with
 * the browser's cookies, each project held to its share of the workers as ours are. No sign-in, no
 * cache, no setup project, no plugin imported.
 *
 * @example
 * const side = noAuthSide(join(base, 'no-auth'), HEADLINE, await makeSessions(join(base, 'no-auth-sessions'), HEADLINE, demo.url));
 */
export function noAuthSide(dir: string, shape: SuiteShape, sessions: Record<string, KnownSession>): Side {
  const users = usersOf(shape);
  // The best plain layout, as ours gets it from authProjects: when the users divide evenly among the
  // workers, each user's project is held to its share, so that a worker runs whole users and starts
  // once per user (left alone, Playwright restarts a worker each time it moves to another project).
  const perUser = users.length % shape.workers === 0 || shape.workers % users.length === 0 ? Math.max(1, Math.floor(shape.workers / users.length)) : undefined;
  const projects = users.map((u) => {
    const session = sessions[u.name];
    if (!session) throw new Error(`no-auth side: no session for ${u.name}`);
    const use = 'token' in session ? { extraHTTPHeaders: { Authorization: `Bearer ${session.token}` } } : { storageState: session.storageState };
    return { name: `suite-${u.name}`, ...(perUser === undefined ? {} : { workers: perUser }), use };
  });
  writeCommon(dir);
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
${BROWSER}
export default defineConfig({
  ${sharedConfig(shape)}
  projects: ${JSON.stringify(projects)},
});
`,
  );
  const { api, page } = specs(shape, `import { test, expect } from '@playwright/test';`, 'request');
  writeFileSync(join(dir, 'tests', 'api.spec.ts'), api);
  writeFileSync(join(dir, 'tests', 'page.spec.ts'), page);
  // Nothing to forget between runs: the sessions are the config's.
  return { name: 'no-auth', dir, tests: users.length * (shape.apiTests + shape.pageTests), clean: () => undefined };
}
