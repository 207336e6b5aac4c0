import { test, expect } from '@playwright/test';
import { runDemoSuite } from '../support/demo-run.js';

test('examples/email passes: two users by a mailed code, one by a magic link, one by a password and a mailed second factor', async () => {
  test.setTimeout(180_000);
  const { code, stdout, stderr } = await runDemoSuite({ config: 'examples/email/playwright.config.ts', env: { DEMO_REPORTER: 'json' } });
  expect(code, `${stdout.slice(0, 4000)}\n${stderr}`).toBe(0);
  const report = JSON.parse(stdout) as { stats: { expected: number; unexpected: number; skipped: number } };
  expect(report.stats).toMatchObject({ expected: 4, unexpected: 0, skipped: 0 });
});
