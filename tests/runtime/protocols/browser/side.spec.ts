import { readFileSync } from 'node:fs';
import type { Plan, PlanBrowserOperation } from '../../../../src/compile/plan.js';
import { BrowserProject } from '../../../../src/config/schema/index.js';
import { browserIssues } from '../../../../src/runtime/protocols/browser/validate.js';
import { FIXTURE_PASSWORD } from '../../../../fixtures/browser-pages/server.js';
import { ORIGIN, expect, run, test } from './support.js';

const SIDE = new URL('../../../../fixtures/browser-pages/sign-in.side', import.meta.url);

test('a project exported by Selenium IDE (.side 2.0) validates and runs unchanged but for its url', async ({ context, pages }) => {
  const project = BrowserProject.parse(JSON.parse(readFileSync(SIDE, 'utf8')));
  const op: PlanBrowserOperation = {
    tech: 'browser',
    origin: [...ORIGIN],
    extractions: [],
    project: { ...project, url: pages.url },
    waitForSeconds: 5,
  };
  const plan: Plan = {
    users: [],
    procedures: { login: { name: 'login', origin: ['procedures', 0], operations: [op], injections: [] } },
    scope: [],
    mtls: [],
  };
  expect(browserIssues(plan)).toEqual([]);

  const result = await run(context, op, { password: FIXTURE_PASSWORD });
  expect(result.variables.me).toBe('user alice');
  expect(result.variables.win4821).toMatch(/^window-\d+$/);
  const login = pages.received.filter((r) => r.url === '/login').at(-1);
  expect(Object.fromEntries(new URLSearchParams(login?.body))).toEqual({
    username: 'alice',
    password: FIXTURE_PASSWORD,
    remember: 'yes',
    role: 'admin',
  });
  expect(result.observation.urls.at(-1)).toBe(`${pages.url}/popup.html`);
  expect(context.pages().filter((page) => !page.isClosed())).toHaveLength(1);
});
