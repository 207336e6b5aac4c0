import { exampleAt } from '../support/examples.js';
import { planFromYaml } from '../support/plan.js';
import { expect, signIn, test } from './support.js';

test('examples/browser/control-flow.yaml signs alice in through /login, its if skipping the consent the demo never asks for', async ({ demo, browser }) => {
  const { session } = await signIn(planFromYaml(exampleAt('browser/control-flow.yaml', demo.url)), 'alice', browser);
  const sid = session.cookies.find((cookie) => cookie.name === 'sid');
  expect(demo.state.sessions.get(sid?.value ?? '')).toBe('alice');
  expect(session.headers.Authorization?.[0]).toMatch(/^Bearer \S+$/);
});
