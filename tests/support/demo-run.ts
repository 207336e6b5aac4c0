import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

/** The package root (where `node_modules` and `examples/` are). */
export const repoRoot = resolve(import.meta.dirname, '..', '..');

/**
 * A TCP port that was free on 127.0.0.1 a moment ago (for a child's `webServer`, which needs a
 * number before it starts).
 *
 * @example
 * const port = await freePort(); // 41873
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

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
  const env: Record<string, string | undefined> = { ...process.env, DEMO_PORT: String(port), CI: '1' };
  for (const name of ['DEMO_URL', 'FORCE_COLOR']) delete env[name];
  for (const name of Object.keys(env)) {
    if (name.startsWith('PLAYWRIGHT_') || name.startsWith('TEST_') || name.startsWith('MULTIAUTH_')) delete env[name];
  }
  // The browser override is the machine's, not the demo's: keep it.
  if (process.env.MULTIAUTH_BROWSER_PATH) env.MULTIAUTH_BROWSER_PATH = process.env.MULTIAUTH_BROWSER_PATH;
  Object.assign(env, options.env);
  const child = spawn(process.execPath, [join(repoRoot, 'node_modules/@playwright/test/cli.js'), 'test', '-c', options.config], {
    cwd: options.cwd ?? repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return { code, stdout, stderr };
}
