import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PLAYWRIGHT_CLI, withoutRunnerVariables } from './child-playwright.js';
import { CHROMIUM } from './chromium.js';
import { inlineBase } from './inline-package.js';
import { withoutEscapes } from '../../src/core/terminal-text.js';

/**
 * A reporter file for an inline project (`'steps-reporter.ts': STEPS_REPORTER`, listed in its
 * config's reporters): it writes every step any reporter sees, by test title, as
 * `Before Hooks > sign in as alice > ...`, into `steps.json`; {@link readSteps} reads them.
 */
export const STEPS_REPORTER = `
import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
const seen: Record<string, string[]> = {};
export default class Steps implements Reporter {
  onStepEnd(test: TestCase, _result: TestResult, step: TestStep) {
    (seen[test.title] ??= []).push(step.titlePath().join(' > ') + (step.error ? ' (failed)' : ''));
  }
  onEnd() { writeFileSync('steps.json', JSON.stringify(seen)); }
}
`;

/** The steps {@link STEPS_REPORTER} saw in the run in `dir`, by test title. */
export function readSteps(dir: string): Record<string, string[]> {
  return JSON.parse(readFileSync(join(dir, 'steps.json'), 'utf8')) as Record<string, string[]>;
}

/** Result of running an inline project. */
export interface InlineResult {
  exitCode: number | null;
  output: string;
  /** Playwright's JSON report. */
  report: JsonReport;
  dir: string;
  passed: number;
  failed: number;
  /** Annotations of every test, by test title. */
  annotations: Record<string, Array<{ type: string; description?: string }>>;
}

interface JsonReport {
  stats: { expected: number; unexpected: number; skipped: number; flaky: number };
  suites: JsonSuite[];
  errors: Array<{ message: string }>;
}
interface JsonSuite {
  title: string;
  specs: Array<{ title: string; tests: Array<{ projectName: string; status: string; annotations: Array<{ type: string; description?: string }>; results: Array<{ status: string; errors: Array<{ message?: string }> }> }> }>;
  suites?: JsonSuite[];
}

/** Default playwright.config.ts of an inline project: the suite's Chromium (support/chromium.ts), JSON report to a file. */
export function inlineConfig(extra = ''): string {
  return `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  // Its own folder: by default Playwright writes beside the nearest package.json, which is this
  // package's, where the outer run writes and removes its own (a race seen once: ENOTDIR on mkdir).
  outputDir: 'test-results',
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  use: {
    launchOptions: { executablePath: process.env.MULTIAUTH_BROWSER_PATH || ${JSON.stringify(CHROMIUM)} },
    baseURL: process.env.DEMO_URL,
  },
  ${extra}
});
`;
}

/**
 * `playwright.config.ts` of a child run with a project per scenario: each in its own folder, with
 * its own demo server (`baseURL`) and `multiauth.yaml`, every worker using the browser `use` text
 * gives (e.g. `startBrowserServer().useText`: one chromium for the whole run).
 *
 * @example
 * files['playwright.config.ts'] = scenarioProjectsConfig([{ name: 'revoked', url: demo.url }], browser.useText);
 */
export function scenarioProjectsConfig(projects: ReadonlyArray<{ name: string; url: string }>, use: string): string {
  const lines = projects.map(({ name, url }) => `{ name: '${name}', testDir: '${name}', use: { baseURL: '${url}', authConfig: '${name}/multiauth.yaml' } }`);
  return `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  outputDir: 'test-results',
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  use: { ${use} },
  projects: [${lines.join(',\n    ')}],
});
`;
}

/**
 * Writes a small Playwright project into a fresh folder of {@link inlineBase} (under .tmp-inline/,
 * where the built package is installed under node_modules, as users get it) and runs it in a child
 * process, as Playwright's own runInlineTest does. `wrap` is a command the
 * run is started through (e.g. `unshare --pid --fork --mount-proc`, as in a container). Two
 * workers are asked for on the command line unless `workersFromConfig` leaves them to the config.
 */
export async function runInlineProject(
  files: Record<string, string>,
  options: { env?: Record<string, string>; args?: string[]; dir?: string; wrap?: string[]; workersFromConfig?: boolean } = {},
): Promise<InlineResult> {
  const dir = options.dir ?? mkdtempSync(join(inlineBase(), 'p-'));
  // Its own package.json: Playwright's default output folder is beside the nearest one, which
  // would otherwise be the one every child run of inlineBase() shares (a race: ENOENT on mkdir).
  const defaults = { 'package.json': JSON.stringify({ private: true, type: 'module' }), 'playwright.config.ts': inlineConfig() };
  for (const [name, text] of Object.entries({ ...defaults, ...files })) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const env = { ...withoutRunnerVariables(process.env), CI: '', NO_COLOR: '1', ...options.env };
  const command = [process.execPath, PLAYWRIGHT_CLI, 'test', ...(options.workersFromConfig ? [] : ['--workers=2']), ...(options.args ?? [])];
  const [program, ...args] = [...(options.wrap ?? []), ...command] as [string, ...string[]];
  const child = spawn(program, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exitCode = await new Promise<number | null>((r) => child.on('close', r));
  const reportFile = join(dir, 'report.json');
  const report: JsonReport = existsSync(reportFile)
    ? JSON.parse(readFileSync(reportFile, 'utf8'))
    : { stats: { expected: 0, unexpected: 0, skipped: 0, flaky: 0 }, suites: [], errors: [] };
  const annotations: InlineResult['annotations'] = {};
  const visit = (suite: JsonSuite): void => {
    for (const spec of suite.specs) annotations[spec.title] = spec.tests.flatMap((t) => t.annotations);
    suite.suites?.forEach(visit);
  };
  report.suites.forEach(visit);
  return { exitCode, output, report, dir, passed: report.stats.expected, failed: report.stats.unexpected, annotations };
}

/** One test of a child run's JSON report, with the project it ran in. */
export interface ReportedTest {
  /** Its title, without the describes around it. */
  title: string;
  projectName: string;
  /** Playwright's outcome: `expected`, `unexpected`, `flaky` or `skipped`. */
  status: string;
  annotations: Array<{ type: string; description?: string }>;
  /** The messages of the errors of its results (retries included), in order, without the colours' escapes. */
  errors: string[];
}

/**
 * The tests of an inline run's JSON report, grouped by project: a child run with several projects
 * side by side (one per scenario, each against its own server) read as the separate runs it replaces.
 *
 * @example
 * const byProject = testsByProject(result.report);
 * expect(byProject.validated?.every((t) => t.status === 'expected')).toBe(true);
 */
export function testsByProject(report: Pick<JsonReport, 'suites'>): Record<string, ReportedTest[]> {
  const found: Record<string, ReportedTest[]> = Object.create(null);
  const visit = (suite: JsonSuite): void => {
    for (const spec of suite.specs) {
      for (const t of spec.tests) (found[t.projectName] ??= []).push({ title: spec.title, projectName: t.projectName, status: t.status, annotations: t.annotations, errors: t.results.flatMap((r) => r.errors).map((e) => withoutEscapes(e.message ?? '')) });
    }
    suite.suites?.forEach(visit);
  };
  report.suites.forEach(visit);
  return found;
}

/** What the tests of one project of an inline run did. */
export interface ProjectResult {
  /** Tests that ended as expected (Playwright's `expected`). */
  passed: number;
  /** Tests that did not (`unexpected`). */
  failed: number;
  /** Annotations of the project's tests, by test title. */
  annotations: Record<string, Array<{ type: string; description?: string }>>;
}

/**
 * The results of an inline run, project by project (from its JSON report, {@link testsByProject}):
 * what one child run with several projects side by side did for each, as separate runs would tell it.
 *
 * @example
 * const result = await runInlineProject({ ...files, 'playwright.config.ts': inlineConfig(`projects: [{ name: 'a', testMatch: 'a.spec.ts' }, { name: 'b', testMatch: 'b.spec.ts' }],`) });
 * expect(projectResults(result).a?.passed).toBe(1);
 */
export function projectResults(result: Pick<InlineResult, 'report'>): Record<string, ProjectResult> {
  return Object.fromEntries(
    Object.entries(testsByProject(result.report)).map(([name, tests]) => [
      name,
      {
        passed: tests.filter((t) => t.status === 'expected').length,
        failed: tests.filter((t) => t.status === 'unexpected').length,
        annotations: tests.reduce<ProjectResult['annotations']>((all, t) => ({ ...all, [t.title]: [...(all[t.title] ?? []), ...t.annotations] }), {}),
      },
    ]),
  );
}
