/** The Playwright face of playwright-multiauth: fixtures and the role matrix. */
import { shareRunId } from '../sessions/index.js';

// The runner loads this module (its config, its test files) before it starts any worker: the
// workers inherit the runner's run id through the environment, unique even where pids repeat.
shareRunId(process.env);

export { test, authFixtures, type AuthOptions, type AuthWorkerOptions, type AuthFixtures, type SignedInUser } from './fixtures.js';
export { authProjects, authUsers, type RoleMatrixOptions } from './role-matrix.js';
export { multiauthEnv, type MultiAuthEnvOptions } from './multiauth-env.js';
export type { MultiAuthUsers, AuthUserName } from './user-names.js';
export { accessMatrix, type AccessMatrixOptions } from './access-matrix.js';
export { toStorageState, type StorageState } from './storage-state.js';
