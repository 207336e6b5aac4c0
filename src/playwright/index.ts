/** The Playwright face of playwright-multiauth: fixtures and the role matrix. */
import { shareRunId } from '../sessions/index.js';
import { loadPlaywrightTest, type PlaywrightTest } from './playwright-test.js';
import { markWorkerStarted, shareRunEvents } from './run-summary.js';

// The runner loads this module (its config, its test files) before it starts any worker: the
// workers inherit the runner's run id through the environment, unique even where pids repeat.
shareRunId(process.env);
// And the folder its workers tell what their sign-ins cost in: the runner says it at its exit.
shareRunEvents(process.env);
// A worker says it started: the runner's sign-in ahead (authProjects) waits for the first.
markWorkerStarted(process.env);

/**
 * Playwright Test's `expect`, from the Playwright Test that runs the specs (see `loadPlaywrightTest`).
 *
 * @example
 * import { test, expect } from 'playwright-multiauth';
 */
export const expect: PlaywrightTest['expect'] = loadPlaywrightTest().expect;

export { test, authFixtures, type AuthOptions, type AuthWorkerOptions, type AuthFixtures, type SignedInUser } from './fixtures.js';
export type { AccessReplayOptions } from './access-replay.js';
export { authProjects, authUsers, type RoleMatrixOptions } from './role-matrix.js';
export { multiauthEnv, type MultiAuthEnvOptions } from './multiauth-env.js';
export { mailSink, type MailSinkOptions, type MailSinkWebServer } from './mail-sink.js';
export type { MultiAuthUsers, AuthUserName } from './user-names.js';
export { accessMatrix, type AccessMatrixOptions } from './access-matrix.js';
export { toStorageState, type StorageState } from './storage-state.js';
export { authTimeline } from './run-summary.js';
