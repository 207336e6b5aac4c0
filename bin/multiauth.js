#!/usr/bin/env node
// The published CLI runs the compiled output; `npm run build` produces it.
import { main, quietOnClosedPipe } from '../dist/cli/main.cjs';

quietOnClosedPipe(process.stdout, process.stderr);
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
