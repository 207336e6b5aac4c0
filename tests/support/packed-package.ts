import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.js';
import { withoutRunnerVariables } from './child-playwright.js';
import { oncePerRun } from './once-per-run.js';

/** The package's manifest, as the tests read it. */
export const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
  engines: { node: string };
};

/** The browser the installed projects' page tests launch. */
/** The config of every packed-package project: alice signs in at the demo server's token endpoint. */
export const DEMO_CONFIG = `
presets:
  - type: http
    request:
      url: \${DEMO_URL}/auth/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions:
      - { name: token, location: body, key: data.auth.access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
      - { username: alice, password: "\${ALICE_PASSWORD}" }
`;

export { CHROMIUM } from './chromium.js';

/** The versions this repository tests with (`name@range`), from npm's cache when it has them. */
export const PINNED = Object.fromEntries(['@playwright/test', 'typescript', '@types/node'].map((name) => [name, PACKAGE.devDependencies[name] as string]));

/** What one child command printed (stdout and stderr, in order) and its exit code. */
export interface Run {
  code: number | null;
  output: string;
}

/** A child command's output kept: an npm install's log can be long, its end says why it failed. */
const MAX_OUTPUT = 256 * 1024;
/** No install or child run of these tests takes this long, even on a loaded machine. */
const RUN_TIMEOUT_MS = 280_000;

/**
 * A command in a child, without blocking the servers of this process; stopped after a few minutes.
 *
 * @example
 * const installed = await run('npm', ['install', tarball], project, installEnv());
 */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: RUN_TIMEOUT_MS });
    let output = '';
    const keep = (text: string) => {
      output = (output + text).slice(-MAX_OUTPUT);
    };
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The environment for npm and the installed projects: without this runner's variables, quiet
 * (no fund, audit or update notices), from npm's cache first.
 *
 * @example
 * await run('npm', ['install', ...], project, installEnv());
 */
export function installEnv(): Record<string, string> {
  return {
    ...withoutRunnerVariables(process.env),
    CI: '',
    NO_COLOR: '1',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
  };
}

/** The package as published: its tarball, and the tarball unpacked with its dependencies installed. */
export interface Packed {
  /** `playwright-multiauth-<version>.tgz`, absolute. */
  tarball: string;
  /** The unpacked tarball (`package/`) with `node_modules/` of its production dependencies. */
  unpacked: string;
}

/** Waiting for another worker's pack: it installs the dependencies too, a minute or two when loaded. */
const PACK_WAIT_MS = 240_000;

/**
 * Packs the package once per test run (every worker of the run shares it; a rebuild packs anew), and
 * unpacks it with its production dependencies installed, as a linked copy of it would be.
 *
 * @example
 * const { tarball, unpacked } = await packOnce();
 */
export async function packOnce(): Promise<Packed> {
  const tarball = await packTarballOnce();
  const home = await oncePerRun({ name: 'packed', key: builtKey(), waitMs: PACK_WAIT_MS, build: (dir) => unpack(tarball, dir) });
  return { tarball, unpacked: join(home, 'package') };
}

/**
 * The packed tarball alone, once per test run (the one {@link packOnce} unpacks): a file that only
 * installs the tarball does not wait for, nor pay, the unpacked copy's dependency install when it
 * runs alone or first (issue 36).
 *
 * @example
 * const tarball = await packTarballOnce();
 */
export async function packTarballOnce(): Promise<string> {
  const home = await oncePerRun({ name: 'tarball', key: builtKey(), waitMs: PACK_WAIT_MS, build: npmPack });
  return join(home, TARBALL);
}

/** What tells one build of dist/ from another: a rebuild packs anew. */
function builtKey(): string {
  return String(Math.floor(statSync(join(ROOT, 'dist', 'index.js')).mtimeMs));
}

const TARBALL = `playwright-multiauth-${PACKAGE.version}.tgz`;

/** `npm pack` into `home`. */
async function npmPack(home: string): Promise<void> {
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', home], ROOT, installEnv());
  if (packed.code !== 0 || !existsSync(join(home, TARBALL))) throw new Error(`npm pack failed:\n${packed.output}`);
}

/** `tarball` unpacked into `home/package`, with its production dependencies. */
async function unpack(tarball: string, home: string): Promise<void> {
  const env = installEnv();
  const staging = join(home, 'staging');
  mkdirSync(staging);
  const untar = await run('tar', ['xzf', tarball, '-C', staging], home, env);
  if (untar.code !== 0) throw new Error(`tar failed:\n${untar.output}`);
  const deps = await run('npm', ['install', '--omit=dev', '--no-package-lock', '--ignore-scripts'], join(staging, 'package'), env);
  if (deps.code !== 0) throw new Error(`installing the package's dependencies failed:\n${deps.output}`);
  renameSync(join(staging, 'package'), join(home, 'package'));
}

/**
 * A copy of the unpacked package (with or without its `node_modules/`) at `to`: a project links its
 * own copy, as npm may write into a linked folder while installing.
 *
 * @example
 * copyPackage(packed, join(dir, 'playwright-multiauth'));
 */
export function copyPackage(packed: Packed, to: string, { withDependencies = true } = {}): string {
  cpSync(packed.unpacked, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => withDependencies || !source.startsWith(join(packed.unpacked, 'node_modules')),
  });
  return to;
}

/**
 * The toolchain a user has installed before adding the package (the pinned Playwright Test,
 * TypeScript, @types/node), installed once per test run: the shapes copy it rather than have npm
 * extract Playwright again in every project (issue 36). How our package gets installed is what each
 * shape tests; the toolchain's own install is npm's business.
 */
async function toolchainOnce(): Promise<string> {
  const key = createHash('sha1').update(JSON.stringify(PINNED)).digest('hex').slice(0, 12);
  return oncePerRun({
    name: 'toolchain',
    key,
    waitMs: PACK_WAIT_MS,
    build: async (home) => {
      writeFileSync(join(home, 'package.json'), JSON.stringify({ name: 'toolchain', version: '1.0.0', private: true, dependencies: PINNED }));
      const installed = await run('npm', ['install', '--no-package-lock', '--ignore-scripts'], home, installEnv());
      if (installed.code !== 0) throw new Error(`installing the toolchain failed:\n${installed.output}`);
    },
  });
}

/** No toolchain package has more dependencies in its closure than this (Playwright Test has 3). */
const MAX_SEEDED = 50;

/**
 * Copies `names` (from {@link PINNED}) and what they depend on into `project/node_modules`, with
 * their `node_modules/.bin` links, from the run's toolchain install, as a project that already has
 * them installed. npm, finding them there and satisfying the project's ranges without a lockfile,
 * keeps them (it starts from the installed tree) and installs only the rest; a package whose bin
 * link is missing it extracts again (Playwright Test and TypeScript: most of an install's time), and
 * so does it for a package named on its command line: the ranges belong in the project's manifest.
 *
 * @example
 * await seedToolchain(project, ['@playwright/test']);
 */
export async function seedToolchain(project: string, names: string[]): Promise<void> {
  const modules = join(await toolchainOnce(), 'node_modules');
  const todo: string[] = [...names];
  const seen = new Set<string>();
  while (todo.length > 0) {
    const name = todo.pop() as string;
    const from = join(modules, name);
    // An optional dependency of another platform (fsevents) is not installed here.
    if (seen.has(name) || !existsSync(join(from, 'package.json'))) continue;
    seen.add(name);
    if (seen.size > MAX_SEEDED) throw new Error(`the toolchain's ${names.join(', ')} depend on more than ${MAX_SEEDED} packages`);
    const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    todo.push(...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}));
    cpSync(from, join(project, 'node_modules', name), { recursive: true, verbatimSymlinks: true });
  }
  // The links are relative (../typescript/bin/tsc): copied as they are, they point into the project.
  const bins = join(modules, '.bin');
  for (const link of existsSync(bins) ? readdirSync(bins) : []) {
    const target = readlinkSync(join(bins, link));
    if (![...seen].some((name) => target.startsWith(`../${name}/`))) continue;
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    if (!existsSync(join(project, 'node_modules', '.bin', link))) symlinkSync(target, join(project, 'node_modules', '.bin', link));
  }
}
