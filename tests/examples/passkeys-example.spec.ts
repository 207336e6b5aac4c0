import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { test, expect } from '@playwright/test';
import { runDemoSuite } from '../support/demo-run.js';
import { ROOT } from '../support/root.js';

test('examples/passkeys passes: alice by her seeded passkey (sign-in and test page), dave by the passkey he registers', async () => {
  test.setTimeout(180_000);
  // The key from .env.example; DEMO_URL is the run's own (its port).
  const { DEMO_URL: _fixed, ...env } = parseDotenv(readFileSync(join(ROOT, 'examples', 'passkeys', '.env.example'), 'utf8'));
  const { code, stdout, stderr } = await runDemoSuite({ config: 'examples/passkeys/playwright.config.ts', env: { ...env, DEMO_REPORTER: 'json' } });
  expect(code, `${stdout.slice(0, 4000)}\n${stderr}`).toBe(0);
  const report = JSON.parse(stdout) as { stats: { expected: number; unexpected: number; skipped: number } };
  expect(report.stats).toMatchObject({ expected: 3, unexpected: 0, skipped: 0 });
});
