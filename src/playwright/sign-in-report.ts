import type { TestInfo } from '@playwright/test';
import { isMultiAuthError } from '../core/errors.js';
import { redactedUrl } from '../core/urls.js';
import type { LeftOrigin } from './browser-context.js';
import type { WorkerSource } from './worker-auth.js';
import { loadPlaywrightTest } from './playwright-test.js';

// The running Playwright Test's, not one resolved from this file: installed as a link, none may be.
const { test } = loadPlaywrightTest();

/** The annotation types the fixtures write, stable for filters (`annot:multiauth-user=alice` in the HTML report). */
export const ANNOTATION = {
  /** How a user's session was obtained or renewed (`alice: signed in`). */
  note: 'multiauth',
  /** A user the test ran as, once per user (`alice`). */
  user: 'multiauth-user',
  /** A user whose sign-in failed in this test, with the error's code and first line, masked. */
  failed: 'multiauth-sign-in-failed',
  /** A file's `authUser` that overrides the user of an `authProjects` project. */
  overridden: 'multiauth-user-overridden',
  /** A navigation redirected to another origin that Playwright sent the session's headers to. */
  leftOrigin: 'multiauth-session-left-origin',
} as const;

/** The longest error line an annotation quotes: the whole error is the test's error already. */
const MAX_REASON = 300;

/**
 * Runs a user's sign-in as the report step `sign in as USER`, so the report shows its time where it
 * is spent, and under it how the session came (`USER: signed in, 612 ms`, reused from the cache,
 * refreshed). The test gets the user's annotation once; a failed sign-in fails the step and
 * annotates the test.
 *
 * `held`: the session is in this worker's memory already (every test of the user after the
 * worker's first): nothing to time, so no step, only the annotations. A step is a round trip to the
 * runner and back for every test (issue 39's bench: 0.3 ms of CPU a test, and the runner's part).
 *
 * Called from a fixture, the step is reported only when no boxed fixture encloses it (the fixture
 * is `box: 'self'`): a boxed fixture's steps are internal to Playwright's reporters.
 *
 * @example
 * const resolved = await signInStep(testInfo, 'bob', () => auth.session('bob'), auth.holdsSession('bob'));
 */
export async function signInStep<T extends { source: WorkerSource }>(testInfo: TestInfo, user: string, signIn: () => Promise<T>, held = false): Promise<T> {
  annotateOnce(testInfo, ANNOTATION.user, user);
  const annotated = async (): Promise<T> => {
    try {
      return await signIn();
    } catch (error) {
      testInfo.annotations.push({ type: ANNOTATION.failed, description: `${user}: ${reasonOf(error)}` });
      throw error;
    }
  };
  if (held) return annotated();
  return test.step(
    `sign in as ${user}`,
    async () => {
      const started = performance.now();
      const resolved = await annotated();
      const how = `${describeSource(user, resolved.source)}, ${Math.round(performance.now() - started)} ms`;
      // From memory after all (`held` could not tell yet, or signInAs took it first): the annotation says so.
      if (resolved.source !== 'memo') await test.step(how, () => undefined);
      return resolved;
    },
    { box: true },
  );
}

/** `alice: signed in`, `alice: reused from the session cache`, ...: the words of the report and the annotations. */
export function describeSource(user: string, source: WorkerSource): string {
  const how = { memo: 'reused in this worker', cached: 'reused from the session cache', ahead: 'signed in ahead by the runner', fresh: 'signed in', refreshed: 'refreshed' }[source];
  return `${user}: ${how}`;
}

/**
 * Warns when the test runs as another user than the `authProjects` project it belongs to (a file's
 * `test.use({ authUser })` wins over the project's): an annotation on the test, and once per run
 * a line on the console (`firstInRun`). A role matrix that runs every user's project as the same
 * user passes for the wrong reason.
 *
 * @example
 * warnOverriddenUser(testInfo, 'alice', (key) => auth.firstInRun(key));
 */
export function warnOverriddenUser(testInfo: TestInfo, authUser: string | undefined, firstInRun: (key: string) => boolean): void {
  const projectUser = matrixUserOf(testInfo.project.metadata);
  if (projectUser === undefined || projectUser === authUser) return;
  const as = authUser === undefined ? 'signed out' : `as ${authUser}`;
  const text =
    `project "${testInfo.project.name}" is ${projectUser}'s (authProjects), but the test runs ${as}: ` +
    'a test.use({ authUser }) in its file or describe overrides the project\'s user. ' +
    'Leave authUser to the project in the matrix\'s specs (signInAs for a second user), or keep the file out of the matrix (testIgnore).';
  testInfo.annotations.push({ type: ANNOTATION.overridden, description: text });
  let first = false;
  try {
    first = firstInRun(`user-overridden\0${testInfo.project.name}\0${testInfo.file}\0${authUser ?? ''}`);
  } catch {
    // No cache folder to remember it in: the annotation says it all the same.
  }
  if (first) console.warn(`playwright-multiauth: warning: ${testInfo.titlePath[0] ?? testInfo.file}: ${text}`);
}

/** The marker `authProjects` puts in each project's `metadata`: whose project it is. */
export const MATRIX_USER_KEY = 'multiauthUser';

/** Whose project of `authProjects` a project's `metadata` says it is, or undefined: none of its. */
export function matrixUserOf(metadata: unknown): string | undefined {
  if (typeof metadata !== 'object' || metadata === null || !Object.hasOwn(metadata, MATRIX_USER_KEY)) return undefined;
  const user = (metadata as Record<string, unknown>)[MATRIX_USER_KEY];
  return typeof user === 'string' ? user : undefined;
}

function annotateOnce(testInfo: TestInfo, type: string, description: string): void {
  if (!testInfo.annotations.some((a) => a.type === type && a.description === description)) testInfo.annotations.push({ type, description });
}

/** The error's code and first line, masked already (`toSpecError`), cut short; a bug's class name only. */
function reasonOf(error: unknown): string {
  if (!isMultiAuthError(error)) return error instanceof Error ? `${error.name} (see the test's error)` : 'sign-in failed';
  const lines = error.message.split('\n', 20);
  const where = lines.find((line) => line.startsWith('  while signing in '));
  const first = [(lines[0] ?? '').replace(/^playwright-multiauth: /, ''), where?.trim()].filter(Boolean).join(', ');
  const line = first.length > MAX_REASON ? `${first.slice(0, MAX_REASON)}…` : first;
  return `[${error.code}] ${line}`;
}

/**
 * Says, on the test and once per run on the console, that a page navigation of `user`'s was
 * redirected to another origin and Playwright sent that origin the headers the session had given
 * the navigation (it applies a route's headers to every redirect and routes none of a
 * navigation's): names, never values; URLs without query values.
 *
 * @example
 * warnLeftOrigin(testInfo, 'alice', { from: 'http://app.test/dl', to: 'https://cdn.test/f', headers: ['authorization'] }, firstInRun);
 */
export function warnLeftOrigin(testInfo: TestInfo, user: string, left: LeftOrigin, firstInRun: (key: string) => boolean): void {
  const to = new URL(left.to).origin;
  const text =
    `${user}'s page went from ${redactedUrl(left.from)} to another origin, ${to}, through a redirect, and Playwright sent ` +
    `${to} the session's ${left.headers.join(', ')} header${left.headers.length === 1 ? '' : 's'}: it applies the headers a navigation was ` +
    'routed with to its redirects, and routes none of them. Sign the user in with cookies where its pages are redirected to another host, ' +
    'or test that redirect with authedRequest (docs/fixtures.md, "Redirects").';
  testInfo.annotations.push({ type: ANNOTATION.leftOrigin, description: text });
  let first = false;
  try {
    first = firstInRun(`left-origin\0${user}\0${to}`);
  } catch {
    // No cache folder to remember it in: the annotation says it all the same.
  }
  if (first) console.warn(`playwright-multiauth: warning: ${text}`);
}
