import { existsSync } from 'node:fs';
import type { BrowserContextOptions } from 'playwright-core';
import { dirname, join } from 'node:path';
import { loadSignIn, playwrightCore } from '../runtime/index.js';
import { playwrightConfigFile } from './config-dir.js';
import { loadedConfig, projectBrowser, type ProjectBrowser, type RequireCache } from './loaded-config.js';
import { runnerEventsFile, WORKER_STARTED } from './run-summary.js';
import { AHEAD_WORKER, WorkerAuth } from './worker-auth.js';
import { WorkerBrowser } from './worker-browser.js';

/** What {@link signInAhead} signs in, and where from. */
export interface SignInAheadRequest {
  /** The config file, absolute. */
  file: string;
  /** The Playwright config's folder (relative paths in the config resolve from it). */
  baseDir: string;
  /** The users of the projects `authProjects` made, in project order, with each project's name. */
  projects: ReadonlyArray<{ user: string; name: string }>;
  env: Record<string, string | undefined>;
  argv: readonly string[];
}

/** Sign-ins at once: enough for the first projects' workers, not a burst at the identity provider. */
const AHEAD_AT_ONCE = 4;
/** How often the runner looks for its first worker; a worker's start takes a second or more. */
const POLL_MS = 20;
/** A run whose first worker has not started by then (a long webServer start) signs in as before. */
const WAIT_FOR_WORKERS_MS = 10 * 60_000;
/** Options of `playwright test` after which the run starts no worker, or starts them elsewhere. */
const NO_RUN_HERE = new Set(['--list', '--ui', '--ui-host', '--ui-port', '--help', '-h']);

/** The users each config file's sign-in ahead was asked for in this process: `authProjects` may be called twice. */
const asked = new Map<string, Set<string>>();

/**
 * Signs the users of `authProjects` in from the Playwright runner, while it starts its workers,
 * so that the workers' first tests find their sessions in the cache: one process opens the config
 * and signs everyone in side by side, instead of each worker opening it and signing its own user
 * in before its first test. Only users whose sign-in is HTTP requests alone, and, in a config it
 * can read (a CommonJS project's), users whose sign-in runs browser steps too, on a browser of its
 * own launched as their project's workers would launch theirs ({@link projectBrowser}; mail and
 * passkey users sign in in their workers, as before), only in a `playwright test` run that runs
 * tests here (not `--list`, `--ui`), only the projects `--project` chose, and only once the run's
 * first worker has started: Playwright has then started the `webServer` and run `globalSetup`,
 * so the application is up and its users exist. The config is opened meanwhile. A config with
 * neither ({@link startsNothingFirst}) starts nothing first: its users sign in at once. Users whose
 * cached sessions a test would take as they are get nothing: a run that finds every session cached
 * loads no sign-in engine here, nor opens the config when the last run checked the same one.
 *
 * Returns at once; never throws and prints nothing but the config's warnings (once per run, as a
 * worker would): a sign-in that fails is remembered for the run as a worker's is, and the tests
 * of that user fail with its error. `MULTIAUTH_SIGN_IN_AHEAD=off` or `signInAhead: false` turns it off.
 *
 * @example
 * signInAhead({ file, baseDir, projects: [{ user: 'alice', name: 'api-alice' }], env: process.env, argv: process.argv });
 */
export function signInAhead(request: SignInAheadRequest): void {
  const events = runnerEventsFile(request.env);
  if (events === undefined) return;
  const done = asked.get(request.file) ?? new Set<string>();
  asked.set(request.file, done);
  const users = aheadUsers(request).filter((user) => !done.has(user));
  if (users.length === 0) return;
  for (const user of users) done.add(user);
  void ahead(request, users, events).catch(() => undefined);
}

/**
 * The users {@link signInAhead} would sign in for this command line, in project order: none in a
 * worker, outside `playwright test`, with `--list` or `--ui`, or with `MULTIAUTH_SIGN_IN_AHEAD=off`;
 * with `--project`, only the users of the projects it names (Playwright's match: case aside, `*`
 * for any characters). Which of them sign in over HTTP alone is known once the config is open.
 *
 * @example
 * aheadUsers({ ...request, argv: ['node', 'playwright', 'test', '--project=api-bob'] }); // ['bob']
 */
export function aheadUsers(request: Pick<SignInAheadRequest, 'projects' | 'env' | 'argv'>): string[] {
  const { env, argv } = request;
  if (env.TEST_WORKER_INDEX !== undefined || !runsTestsHere(argv) || /^(off|0|false|no)$/i.test(env.MULTIAUTH_SIGN_IN_AHEAD ?? '')) return [];
  return [...new Set(projectsRun(request).map((p) => p.user))];
}

async function ahead(request: SignInAheadRequest, users: string[], events: string): Promise<void> {
  let pages: WorkerBrowser | undefined;
  const auth = new WorkerAuth({
    configPath: request.file,
    baseDir: request.baseDir,
    env: request.env,
    events: { file: events, worker: AHEAD_WORKER, cached: false },
    // Only the users of {@link onPages} get here, and only once it is started.
    browser: { newContext: async (options?: BrowserContextOptions) => (await (pages as WorkerBrowser).get()).newContext(options) },
  });
  try {
    // From the run's digest when the config is unchanged since a run that checked it: a run whose
    // sessions are all cached then neither opens the config nor loads the sign-in engine here,
    // CPU the workers' start needs on a small machine.
    const configFile = playwrightConfigFile(request.argv, process.cwd());
    const browserUsers = onPages(request, await auth.browserUsers(users), configFile);
    const candidates = [...(await auth.httpUsers(users)), ...(browserUsers?.users ?? [])];
    const usable = await Promise.all(candidates.map((user) => auth.hasUsableSession(user).catch(() => false)));
    let due = candidates.filter((_, index) => !usable[index]);
    if (browserUsers && due.some((user) => browserUsers.users.includes(user))) {
      const { browserName, launchOptions } = browserUsers.browser;
      const core = await playwrightCore().catch(() => undefined);
      // Without playwright-core here, the browser users' workers sign them in, and say why if they cannot.
      if (core) pages = new WorkerBrowser({ browserType: core[browserName], browserName, launchOptions, env: request.env });
      else due = due.filter((user) => !browserUsers.users.includes(user));
    }
    if (due.length === 0) return;
    // What the sign-ins run is loaded while the workers start, not after. A run that starts no
    // webServer and runs no globalSetup has its application up already: no reason to wait.
    const first = startsNothingFirst(configFile) ? Promise.resolve(true) : workerStarted(join(dirname(events), WORKER_STARTED));
    const [started] = await Promise.all([first, loadSignIn().catch(() => undefined)]);
    if (!started) return;
    let next = 0;
    const lane = async () => {
      while (next < due.length) await auth.prepare(due[next++] as string).catch(() => undefined);
    };
    await Promise.all(Array.from({ length: Math.min(AHEAD_AT_ONCE, due.length) }, lane));
  } finally {
    await auth.close();
    await pages?.close();
  }
}

/**
 * The browser users the runner signs in on a browser of its own, and that browser: those whose
 * projects launch theirs as the first such user's project does (the config as require loaded it:
 * see {@link projectBrowser}). Users of a project that launches another way, and every browser
 * user of a config that cannot be read here (an ES module config), sign in in their workers.
 */
function onPages(request: SignInAheadRequest, users: string[], configFile: string | undefined): { users: string[]; browser: ProjectBrowser } | undefined {
  const config = users.length ? loadedConfig(configFile) : undefined;
  if (!config) return undefined;
  let browser: ProjectBrowser | undefined;
  const chosen: string[] = [];
  const projects = projectsRun(request);
  for (const user of users) {
    const project = projects.find((p) => p.user === user);
    const launch = project && projectBrowser(config, project.name, request.argv, request.env);
    if (!launch) continue;
    browser ??= launch;
    if (JSON.stringify(launch) === JSON.stringify(browser)) chosen.push(user);
  }
  return browser && { users: chosen, browser };
}

/**
 * Whether Playwright starts nothing before its first worker for the config `file`: the config,
 * loaded by now into require's cache (Playwright compiles a CommonJS project's config and
 * `require`s it), has no `webServer` and no `globalSetup`, so the application the users sign in to
 * is up already. False when that cannot be told (an ES module config is not in require's cache, a
 * config of another shape): then the sign-ins wait for the first worker.
 *
 * @example
 * startsNothingFirst('/repo/playwright.config.ts'); // true: no webServer, no globalSetup
 */
export function startsNothingFirst(file: string | undefined, cache?: RequireCache): boolean {
  const config = loadedConfig(file, cache);
  return config !== undefined && none(config.webServer) && none(config.globalSetup);
}

/** An option left out, or given as nothing (`undefined`, `[]`). */
function none(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

/** Resolves true when the marker appears, false when the run ends (its folder removed) or after {@link WAIT_FOR_WORKERS_MS}. */
function workerStarted(marker: string): Promise<boolean> {
  const until = Date.now() + WAIT_FOR_WORKERS_MS;
  return new Promise((resolve) => {
    const look = () => {
      if (existsSync(marker)) return resolve(true);
      if (Date.now() > until || !existsSync(dirname(marker))) return resolve(false);
      // Unref'd: a runner that is done does not wait for it.
      setTimeout(look, POLL_MS).unref();
    };
    look();
  });
}

/** The projects of `request` that the command line runs: with `--project`, those it names. */
function projectsRun(request: Pick<SignInAheadRequest, 'projects' | 'argv'>): SignInAheadRequest['projects'] {
  const chosen = projectsChosen(request.argv);
  return request.projects.filter((p) => !chosen || chosen.some((pattern) => matchesProject(pattern, p.name)));
}

/** Whether the process is `playwright test` running its tests in this process's workers. */
function runsTestsHere(argv: readonly string[]): boolean {
  return argv[2] === 'test' && !argv.some((arg) => NO_RUN_HERE.has(arg.split('=')[0] as string));
}

/** The `--project` values of the command line (`--project a b`, `--project=a`), or undefined: all. */
function projectsChosen(argv: readonly string[]): string[] | undefined {
  const chosen: string[] = [];
  let found = false;
  for (let i = 3; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('--project=')) {
      found = true;
      chosen.push(arg.slice('--project='.length));
    } else if (arg === '--project') {
      found = true;
      while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('-')) chosen.push(argv[++i] as string);
    }
  }
  return found ? chosen : undefined;
}

/** Playwright's `--project` match: the name, case-insensitively, with `*` for any characters. */
function matchesProject(pattern: string, name: string): boolean {
  const parts = pattern.toLowerCase().split('*');
  const text = name.toLowerCase();
  if (parts.length === 1) return text === parts[0];
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!text.startsWith(first) || !text.endsWith(last) || text.length < first.length + last.length) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found < 0 || found + part.length > text.length - last.length) return false;
    at = found + part.length;
  }
  return true;
}
