// One Playwright worker's start, as bench/worker-start.ts measures it: import @playwright/test (every
// worker does), then, unless the mode is `peer`, import the package and get the user's session
// (mode `first`: signing in; mode `cached`: from the cache an earlier worker of the run filled).
// Prints the process's whole CPU time (user + system, ms, Node's bootstrap included) as JSON.
// Plain JavaScript, so that no loader (tsx) costs either side.
// usage: node bench/worker-probe.mjs peer|first|cached <dist dir> <config dir> <user>
// The package is required, as a CommonJS project's worker (Playwright's default for TypeScript) does.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [mode, dist, configDir, user] = process.argv.slice(2);
const require = createRequire(import.meta.url);
require('@playwright/test');
if (mode !== 'peer') {
  require(join(dist, 'index.cjs'));
  const { WorkerAuth } = require(join(dist, 'playwright', 'worker-auth.cjs'));
  const auth = new WorkerAuth({ baseDir: configDir, env: process.env });
  const { source } = await auth.session(user);
  if (mode === 'cached' && source !== 'cached') throw new Error(`expected a cached session, got "${source}"`);
}
const { user: userMs, system } = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ cpuMs: (userMs + system) / 1000 })}\n`);
