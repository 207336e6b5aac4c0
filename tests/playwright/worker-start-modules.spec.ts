import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
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
  'runtime/access/index.js', 'runtime/access/matrix.js', 'runtime/access/render.js', 'runtime/access/request.js', 'runtime/access/send.js', 'sessions/access-matrix.js', 'core/regex.js',
  // Passkeys: passkey users' sign-ins and contexts.
  'runtime/protocols/browser/passkey.js', 'runtime/session/passkey.js', 'playwright/passkey-context.js', 'sessions/passkey-sealing.js',
  // Digest users' authedRequest.
  'runtime/protocols/digest/index.js', 'runtime/protocols/digest/answer.js', 'runtime/http/www-authenticate.js',
  // The worker that opens the config (tidy, user types, static credentials), a refused request, signInAs, the runner.
  'sessions/tidy-cache.js', 'sessions/user-types.js', 'sessions/denials.js', 'runtime/engine/complete.js', 'runtime/engine/find-user.js',
  'playwright/signed-in-user.js', 'playwright/plain-test-import.js', 'runtime/protocols/browser/browser-path.js',
  // Mail: a sign-in with a \`tech: email\` step.
  'runtime/mail/index.js', 'runtime/mail/sink.js', 'runtime/mail/parse.js',
  // Signing in: the engine, the transport, the config's parser.
  'runtime/engine/authenticate.js', 'runtime/http/dispatcher.js', 'sessions/open-config.js',
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
  // Logs every module of dist/ the loader loads, from the loader's thread, on stderr.
  const distUrl = `${pathToFileURL(DIST).href}/`;
  writeFileSync(join(dir, 'hooks.mjs'), `export async function load(url, context, next) { if (url.startsWith(${JSON.stringify(distUrl)})) process.stderr.write('LOADED ' + url.slice(${distUrl.length}) + '\\n'); return next(url, context); }\n`);
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
  // Both probes are workers of one run (this process's), as bench/worker-start.ts runs them.
  const env = { ...withoutRunnerVariables(process.env), MULTIAUTH_CACHE_DIR: join(dir, '.auth'), TEST_WORKER_INDEX: '1' };
  const first = await runNodeChild([PROBE, 'first', DIST, dir, 'alice'], { cwd: ROOT, env, timeoutMs: 30_000 });
  expect(first.code, first.stderr).toBe(0);
  const cached = await runNodeChild(['--import', pathToFileURL(join(dir, 'register.mjs')).href, PROBE, 'cached', DIST, dir, 'alice'], { cwd: ROOT, env, timeoutMs: 30_000 });
  expect(cached.code, cached.stderr).toBe(0);
  const loaded = [...cached.stderr.matchAll(/^LOADED (\S+)$/gm)].map((m) => m[1] as string);
  // The hook saw the package (a broken hook would pass every check below).
  expect(loaded).toEqual(expect.arrayContaining(['index.js', '_chunks/playwright.js', '_chunks/base.js']));
  expect(loaded.filter((name) => NOT_LOADED.includes(name))).toEqual([]);
  expect(loaded.length, `${loaded.length} modules of dist/ loaded:\n${loaded.join('\n')}`).toBeLessThanOrEqual(MAX_MODULES);
});

// The chunks hide which modules they hold: those are the ones the entry reaches in src/.
test('the modules the package\'s entry reaches at once, which every process loads, include none that loads on first use', () => {
  const eager = eagerModules('index.ts').map((name) => name.replace(/\.ts$/, '.js'));
  expect(eager).toEqual(expect.arrayContaining(['index.js', 'playwright/worker-auth.js', 'sessions/session-store.js']));
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
