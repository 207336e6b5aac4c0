import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../support/cli.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

// Issue 36: the suite starts the CLI hundreds of times, and every start loaded every command with
// the config, compile and runtime layers (zod, yaml): 0.6 s of CPU for `--help`. Commands are now
// loaded when they run. A resolve hook in the child lists every ES module it loads, and its module
// cache at exit every CommonJS one (the package's build among them).

test.afterAll(removeTempDirs);

const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LOADED_LOG, resolved.url + '\\n');
  return resolved;
}
`;

const REQUIRED = `
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
process.on('exit', () => appendFileSync(process.env.LOADED_LOG, Object.keys(require.cache).map((file) => pathToFileURL(file).href + '\\n').join('')));
`;

/** The modules `multiauth ...args` loaded, as file URLs, with its exit code. */
function loadedBy(args: string[]): { code: number | null; modules: string[] } {
  const dir = writeFiles({
    'hooks.mjs': HOOKS,
    'required.cjs': REQUIRED,
    'multiauth.yaml': 'presets:\n  - type: basic\n    users: [{ username: viewer, password: viewer-secret-pw }]\n',
  });
  const hooks = pathToFileURL(join(dir, 'hooks.mjs')).href;
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(hooks)});\n`);
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const run = runCli(args, { cwd: dir, env: { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, 'register.mjs')).href} --require ${join(dir, 'required.cjs')}`, LOADED_LOG: log } });
  return { code: run.code, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/** What only signing in or reading a config needs: the format's parser and schema, the layers past core. */
const HEAVY = /\/node_modules\/(zod|yaml)\/|\/dist\/(config|compile|runtime|sessions|draft)\//;

for (const args of [['--help'], ['--version'], ['validate', '--help'], ['nope'], ['login', 'alice', 'bob', '--json']]) {
  test(`multiauth ${args.join(' ')} loads no config layer, zod nor yaml`, () => {
    const { code, modules } = loadedBy(args);
    expect(code).toBe(args[0] === '--help' || args[0] === '--version' || args[1] === '--help' ? 0 : 2);
    // The hook sees the CLI's own modules: an empty list would prove nothing.
    expect(modules.some((url) => url.endsWith('/dist/cli/main.cjs'))).toBe(true);
    expect(modules.filter((url) => HEAVY.test(url))).toEqual([]);
  });
}

test('multiauth validate loads what it runs: the config layer and yaml', () => {
  const { code, modules } = loadedBy(['validate']);
  expect(code).toBe(0);
  expect(modules.some((url) => /\/dist\/config\//.test(url))).toBe(true);
  expect(modules.some((url) => /\/node_modules\/yaml\//.test(url))).toBe(true);
});
