/** The Playwright face of playwright-multiauth: fixtures and the role matrix. */
export { test, authFixtures, type AuthOptions, type AuthWorkerOptions, type AuthFixtures, type SignedInUser } from './fixtures.js';
export { authProjects, authUsers, type RoleMatrixOptions } from './role-matrix.js';
export { toStorageState, type StorageState } from './storage-state.js';
