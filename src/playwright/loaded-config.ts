import { createRequire } from 'node:module';
import type { LaunchOptions } from 'playwright-core';
import { ownFile } from '../core/call-site.js';

/** What require's cache holds per file, as far as reading a config goes. */
export type RequireCache = Record<string, { exports?: unknown } | undefined>;

/** The browsers Playwright launches by name (`browserName`, `defaultBrowserType`). */
const BROWSER_NAMES = ['chromium', 'firefox', 'webkit'] as const;
/** Options of `playwright test` that change how its browsers start: the runner leaves such users to their workers. */
const BROWSER_FLAGS = new Set(['--headed', '--debug', '--browser']);

/** How a project's workers launch their browser: what the runner launches to sign its users in as they would. */
export interface ProjectBrowser {
  browserName: (typeof BROWSER_NAMES)[number];
  /** Playwright's `launchOptions` with the project's `headless` and `channel`, as its `browser` fixture passes them. */
  launchOptions: LaunchOptions;
}

/**
 * The Playwright config `file` as the runner loaded it: a CommonJS project's config, which
 * Playwright compiles and `require`s, is in require's cache by the time its `authProjects` runs.
 * Undefined when it is not there (an ES module config) or is not a config's shape.
 *
 * @example
 * loadedConfig('/repo/playwright.config.ts')?.webServer; // undefined: none
 */
export function loadedConfig(file: string | undefined, cache: RequireCache = createRequire(ownFile()).cache): Record<string, unknown> | undefined {
  if (file === undefined || !Object.hasOwn(cache, file)) return undefined;
  const exported = cache[file]?.exports as { default?: unknown } | undefined;
  const config = exported !== null && typeof exported === 'object' && Object.hasOwn(exported, 'default') ? exported.default : exported;
  return isRecord(config) ? config : undefined;
}

/**
 * How the workers of the project named `name` launch their browser, from the loaded `config`:
 * its `use` over the config's (Playwright merges them key by key), `browserName` (else
 * `defaultBrowserType`, else Chromium), `launchOptions`, `headless` and `channel`. Undefined when
 * the runner cannot launch the same browser: no such project, a remote browser (`connectOptions`),
 * a browser name Playwright has not, a `use` of another shape, or a command line or environment
 * that changes the launch (`--headed`, `--debug`, `--browser`, `PWDEBUG`).
 *
 * @example
 * projectBrowser(config, 'suite-web-1', process.argv, process.env); // { browserName: 'chromium', launchOptions: { headless: true, ... } }
 */
export function projectBrowser(config: Record<string, unknown>, name: string, argv: readonly string[], env: Record<string, string | undefined>): ProjectBrowser | undefined {
  if (env.PWDEBUG || argv.some((arg) => BROWSER_FLAGS.has(arg.split('=')[0] as string))) return undefined;
  const projects = Array.isArray(config.projects) ? (config.projects as unknown[]) : [];
  const project = projects.find((p): p is Record<string, unknown> => isRecord(p) && p.name === name);
  if (!project) return undefined;
  const top = config.use ?? {};
  const own = project.use ?? {};
  if (!isRecord(top) || !isRecord(own)) return undefined;
  const use = { ...top, ...own };
  if (use.connectOptions !== undefined || use._optionConnectOptions !== undefined) return undefined;
  const browserName = use.browserName ?? use.defaultBrowserType ?? 'chromium';
  const launch = use.launchOptions ?? {};
  if (!BROWSER_NAMES.includes(browserName as ProjectBrowser['browserName']) || !isRecord(launch)) return undefined;
  if ((use.headless !== undefined && typeof use.headless !== 'boolean') || (use.channel !== undefined && typeof use.channel !== 'string')) return undefined;
  const launchOptions: LaunchOptions = {
    handleSIGINT: false,
    ...(launch as LaunchOptions),
    ...(use.headless === undefined ? {} : { headless: use.headless as boolean }),
    ...(use.channel === undefined ? {} : { channel: use.channel as string }),
  };
  return { browserName: browserName as ProjectBrowser['browserName'], launchOptions };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
