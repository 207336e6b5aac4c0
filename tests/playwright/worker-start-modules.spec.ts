import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { expect, test } from '../support/demo.js';
import { withoutRunnerVariables } from '../support/child-playwright.js';
import { runNodeChild } from '../support/node-child.js';
import { ROOT } from '../support/root.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// What every Playwright worker 2..N of a run loads of the built package to get a cached session
// (bench/worker-start.ts measures its CPU): a worker of an API user with no passkey, no access
// matrix and no digest. The modules of what such a worker never uses must load on first use
// (lazyModule behind the layers' doors), not at import: an eager import of any of them once took
// the count from 60 to 94 and the bench row past its aim, with every test still passing.
const DIST = join(ROOT, 'dist');
const PROBE = join(ROOT, 'bench', 'worker-probe.mjs');
/**
 * The files of dist/ such a worker loads: the entry and what it re-exports, and the two chunks the
 * build bundles what the entry reaches into (scripts/bundle.mjs); one more than today for a margin.
 * Before the bundle it loaded 75 modules, 28 ms of its CPU; an eager import of a module the entry
 * did not reach adds a file here.
 */
const MAX_MODULES = 6;
/** The modules the entry reaches by static imports, which the bundle holds: 75 today, a margin for a small new concern. */
const MAX_EAGER = 80;
/** Built modules such a worker must not load, by what needs them instead. */
const NOT_LOADED = [
  // The access matrix: its tests and `multiauth matrix`.
  'runtime/access/index.cjs', 'runtime/access/matrix.cjs', 'runtime/access/render.cjs', 'runtime/access/request.cjs', 'runtime/access/send.cjs', 'sessions/access-matrix.cjs', 'core/regex.cjs',
  // Passkeys: passkey users' sign-ins and contexts.
  'runtime/protocols/browser/passkey.cjs', 'runtime/session/passkey.cjs', 'playwright/passkey-context.cjs', 'sessions/passkey-sealing.cjs',
  // Digest users' authedRequest.
  'runtime/protocols/digest/index.cjs', 'runtime/protocols/digest/answer.cjs', 'runtime/http/www-authenticate.cjs',
  // The worker that opens the config (tidy, user types, static credentials), a refused request, signInAs, the runner.
  'sessions/tidy-cache.cjs', 'sessions/user-types.cjs', 'sessions/denials.cjs', 'runtime/engine/complete.cjs', 'runtime/engine/find-user.cjs',
  'playwright/signed-in-user.cjs', 'playwright/plain-test-import.cjs', 'runtime/protocols/browser/browser-path.cjs',
  // Mail: a sign-in with a \`tech: email\` step.
  'runtime/mail/index.cjs', 'runtime/mail/sink.cjs', 'runtime/mail/parse.cjs',
  // Signing in: the engine, the transport, the config's parser.
  'runtime/engine/authenticate.cjs', 'runtime/http/dispatcher.cjs', 'sessions/open-config.cjs',
];

test.afterAll(() => removeTempDirs());

test('a worker that reads its user\'s cached session loads no module of the access matrix, passkeys, digest or sign-in', async ({ demo }) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'multiauth.yaml'), [
    'procedures:',
    '  - name: token-login',
    '    operations:',
    '      - tech: http',
    `        parameters: { url: ${demo.url}/auth/token, method: POST, body: { username: "{{username}}", password: "{{password}}" } }`,
    '        extractions: [{ name: token, location: body, key: data.auth.access_token }]',
    '    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]',
    'users:',
    '  - { name: alice, procedure: token-login, credentials: { username: alice, password: alice-password } }',
    '',
  ].join('\n'));
  // Logs every module of dist/ the process required, at its exit, on stderr.
  writeFileSync(join(dir, 'log-modules.cjs'), `const dist = ${JSON.stringify(DIST + sep)};\nprocess.on('exit', () => { for (const file of Object.keys(require.cache)) if (file.startsWith(dist)) process.stderr.write('LOADED ' + file.slice(dist.length).split(${JSON.stringify(sep)}).join('/') + '\\n'); });\n`);
  // Both probes are workers of one run (this process's), as bench/worker-start.ts runs them.
  const env = { ...withoutRunnerVariables(process.env), MULTIAUTH_CACHE_DIR: join(dir, '.auth'), TEST_WORKER_INDEX: '1' };
  const first = await runNodeChild([PROBE, 'first', DIST, dir, 'alice'], { cwd: ROOT, env, timeoutMs: 30_000 });
  expect(first.code, first.stderr).toBe(0);
  const cached = await runNodeChild(['--require', join(dir, 'log-modules.cjs'), PROBE, 'cached', DIST, dir, 'alice'], { cwd: ROOT, env, timeoutMs: 30_000 });
  expect(cached.code, cached.stderr).toBe(0);
  const loaded = [...cached.stderr.matchAll(/^LOADED (\S+)$/gm)].map((m) => m[1] as string);
  // The hook saw the package (a broken hook would pass every check below).
  expect(loaded).toEqual(expect.arrayContaining(['index.cjs', '_chunks/playwright.cjs', '_chunks/base.cjs']));
  expect(loaded.filter((name) => NOT_LOADED.includes(name))).toEqual([]);
  expect(loaded.length, `${loaded.length} modules of dist/ loaded:\n${loaded.join('\n')}`).toBeLessThanOrEqual(MAX_MODULES);
});

// The chunks hide which modules they hold: those are the ones the entry reaches in src/.
test('the modules the package\'s entry reaches at once, which every process loads, include none that loads on first use', () => {
  const eager = eagerModules('index.ts').map((name) => name.replace(/\.ts$/, '.cjs'));
  expect(eager).toEqual(expect.arrayContaining(['index.cjs', 'playwright/worker-auth.cjs', 'sessions/session-store.cjs']));
  expect(eager.filter((name) => NOT_LOADED.includes(name))).toEqual([]);
  expect(eager.length, eager.join('\n')).toBeLessThanOrEqual(MAX_EAGER);
});

/** The modules of src/ that `entry` reaches by static imports of values (`import type` aside), itself included. */
function eagerModules(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = readFileSync(join(ROOT, 'src', name), 'utf8');
    for (const match of text.matchAll(/^(?:import|export) (?!type )[^;]*?from '(\.{1,2}\/[^']+)\.js';/gm)) {
      visit(join(dirname(name), `${match[1]}.ts`).split(sep).join('/'));
    }
  };
  visit(entry);
  return [...seen];
}
