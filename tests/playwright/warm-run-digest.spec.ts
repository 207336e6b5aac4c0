import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/demo.js';
import { matrixConfig } from '../../src/playwright/role-matrix.js';
import { WorkerAuth } from '../../src/playwright/worker-auth.js';
import { cacheDirFor, quickConfigKey, readRunDigest, writeRunDigest } from '../../src/sessions/index.js';
import { tempFiles } from '../support/temp-files.js';

// A second run of an unchanged config whose sessions are all cached: the runner's sign-in ahead
// (src/playwright/sign-in-ahead.ts) neither opens the config nor loads the sign-in engine, CPU the
// workers' start needs on a 2-core machine (docs/performance.md, "The physical limit").

const ALICE_PASSWORD = 'alice-password';

function config(url: string, extra = ''): string {
  return [
    'procedures:',
    '  - name: token-login',
    '    operations:',
    '      - tech: http',
    `        parameters: { url: ${url}/auth/token, method: POST, body: { username: "{{username}}", password: "{{password}}" } }`,
    '        extractions: [{ name: token, location: body, key: data.auth.access_token }]',
    '    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]',
    'users:',
    `  - { name: alice, procedure: token-login, credentials: { username: alice, password: ${ALICE_PASSWORD} } }`,
    '  - { name: bob, procedure: token-login, credentials: { username: bob, password: bob-password } }',
    `  - { name: static, credentials: { headers: [{ name: X-Key, values: ["static-key${extra}"] }] } }`,
    '',
  ].join('\n');
}

/** What a process of run `run` sees, as the runner's sign-in ahead and the workers do (process.env as a runner's). */
function inRun<T>(run: string, work: () => T): T {
  const before = process.env.MULTIAUTH_RUN_ID;
  process.env.MULTIAUTH_RUN_ID = run;
  try {
    return work();
  } finally {
    if (before === undefined) delete process.env.MULTIAUTH_RUN_ID;
    else process.env.MULTIAUTH_RUN_ID = before;
  }
}

test('a run of the config a run before checked without warnings takes it from the digest: the HTTP users and their cached sessions, without opening it', async ({ demo }) => {
  const project = tempFiles({ 'multiauth.yaml': config(demo.url) });
  const file = join(project.dir, 'multiauth.yaml');
  const auth = (run: string) => new WorkerAuth({ configPath: file, baseDir: project.dir, env: { ...process.env, MULTIAUTH_RUN_ID: run } });
  try {
    // Run A: its runner names the users, its first worker opens the config (checking it) and signs alice in.
    expect(inRun('run-a', () => matrixConfig({ config: file }, project.dir).users)).toEqual(['alice', 'bob', 'static']);
    const first = auth('run-a');
    expect(await first.httpUsers(['alice', 'bob', 'static'])).toEqual(['alice', 'bob']);
    expect(first.redactor.redact(`pw=${ALICE_PASSWORD}`)).not.toContain(ALICE_PASSWORD);
    expect(await first.hasUsableSession('alice')).toBe(false);
    await first.session('alice');
    await first.close();

    // Run B, same text: its digest is carried over checked, and nothing in it opens the config.
    inRun('run-b', () => matrixConfig({ config: file }, project.dir));
    const cacheDir = cacheDirFor(file, process.env, project.dir);
    const key = quickConfigKey(file, process.env);
    expect(readRunDigest(cacheDir, key, 'run-b')).toMatchObject({ run: 'run-b', checked: true, warnings: 0, httpUsers: ['alice', 'bob'] });
    const second = auth('run-b');
    expect(await second.httpUsers(['alice', 'bob', 'static'])).toEqual(['alice', 'bob']);
    expect(await second.hasUsableSession('alice')).toBe(true);
    expect(await second.hasUsableSession('bob')).toBe(false);
    expect(await second.hasUsableSession('static')).toBe(true);
    // The config's secrets are registered by an opening: none happened in this process.
    expect(second.redactor.redact(`pw=${ALICE_PASSWORD}`)).toContain(ALICE_PASSWORD);
    await second.close();

    // A digest written by another build of the package is opened again.
    const digest = readRunDigest(cacheDir, key, undefined);
    if (!digest) throw new Error('no digest');
    writeRunDigest(cacheDir, key, { ...digest, build: 'another-build' });
    inRun('run-c', () => matrixConfig({ config: file }, project.dir));
    expect(readRunDigest(cacheDir, key, 'run-c')).toMatchObject({ run: 'run-c', checked: false });
    const third = auth('run-c');
    expect(await third.hasUsableSession('alice')).toBe(true);
    expect(third.redactor.redact(`pw=${ALICE_PASSWORD}`)).not.toContain(ALICE_PASSWORD);
    await third.close();
  } finally {
    project.remove();
  }
});

test('a config whose check found a warning is opened again by the next run, which shows it', async ({ demo }) => {
  // An unset variable is a warning (the users that need it fail), not an error.
  const project = tempFiles({ 'multiauth.yaml': config(demo.url, '${MULTIAUTH_TEST_NEVER_SET}') });
  const file = join(project.dir, 'multiauth.yaml');
  const warnings: string[] = [];
  const auth = (run: string) => new WorkerAuth({ configPath: file, baseDir: project.dir, env: { ...process.env, MULTIAUTH_RUN_ID: run }, warn: (text) => warnings.push(text) });
  try {
    inRun('run-a', () => matrixConfig({ config: file }, project.dir));
    const first = auth('run-a');
    expect(await first.httpUsers(['alice'])).toEqual(['alice']);
    await first.close();
    expect(warnings.join('')).toContain('MULTIAUTH_TEST_NEVER_SET');

    inRun('run-b', () => matrixConfig({ config: file }, project.dir));
    const cacheDir = cacheDirFor(file, process.env, project.dir);
    expect(readRunDigest(cacheDir, quickConfigKey(file, process.env), 'run-b')).toMatchObject({ run: 'run-b', checked: false, warnings: 1 });
    warnings.length = 0;
    const second = auth('run-b');
    expect(await second.httpUsers(['alice'])).toEqual(['alice']);
    await second.close();
    expect(warnings.join('')).toContain('MULTIAUTH_TEST_NEVER_SET');
  } finally {
    project.remove();
  }
});

test('an edited config is another key: its digest is not carried over', async ({ demo }) => {
  const project = tempFiles({ 'multiauth.yaml': config(demo.url) });
  const file = join(project.dir, 'multiauth.yaml');
  try {
    inRun('run-a', () => matrixConfig({ config: file }, project.dir));
    const opener = new WorkerAuth({ configPath: file, baseDir: project.dir, env: { ...process.env, MULTIAUTH_RUN_ID: 'run-a' } });
    await opener.httpUsers(['alice']);
    await opener.close();
    writeFileSync(file, config(demo.url).replace('bob-password', 'bob-new-password'));
    inRun('run-b', () => matrixConfig({ config: file }, project.dir));
    const cacheDir = cacheDirFor(file, process.env, project.dir);
    expect(readRunDigest(cacheDir, quickConfigKey(file, process.env), 'run-b')).toMatchObject({ run: 'run-b', checked: false, warnings: 0 });
  } finally {
    project.remove();
  }
});
