import { PLAYWRIGHT_CLI, withoutRunnerVariables } from './child-playwright.js';
import { runNodeChild } from './node-child.js';
import { freePort } from './ports.js';
import { ROOT } from './root.js';

/** What a child Playwright run printed and how it ended. */
export interface DemoRunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `playwright test` on the demo suite (or a copy of it) in a child process, on a free
 * DEMO_PORT, with an environment cleaned of the parent runner's variables (PLAYWRIGHT_*, TEST_*)
 * and of those the demo decides itself (DEMO_URL, MULTIAUTH_*).
 *
 * @example
 * const { code, stdout } = await runDemoSuite({ config: 'examples/demo/playwright.config.ts', env: { DEMO_REPORTER: 'json' } });
 */
export async function runDemoSuite(options: { config: string; cwd?: string; env?: Record<string, string> }): Promise<DemoRunResult> {
  const port = await freePort();
  const env = withoutRunnerVariables(process.env);
  for (const name of Object.keys(env)) if (name === 'DEMO_URL' || name.startsWith('MULTIAUTH_')) delete env[name];
  // The browser override is the machine's, not the demo's: keep it.
  if (process.env.MULTIAUTH_BROWSER_PATH) env.MULTIAUTH_BROWSER_PATH = process.env.MULTIAUTH_BROWSER_PATH;
  Object.assign(env, { DEMO_PORT: String(port), CI: '1' }, options.env);
  const { code, stdout, stderr } = await runNodeChild([PLAYWRIGHT_CLI, 'test', '-c', options.config], { cwd: options.cwd ?? ROOT, env });
  return { code, stdout, stderr };
}
