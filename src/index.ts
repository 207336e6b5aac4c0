/**
 * playwright-multiauth: declare test users once in `multiauth.yaml`; specs say
 * `test.use({ authUser: 'alice' })` and run signed in as alice.
 *
 * @example
 * import { test, expect } from 'playwright-multiauth';
 * test.use({ authUser: 'alice' });
 * test('whoami', async ({ authedRequest }) => {
 *   expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice');
 * });
 */
export * from './playwright/index.js';
export { MultiAuthError, ConfigInvalidError, ErrorCode, type ConfigIssue } from './core/errors.js';
export type { AuthConfig, AuthConfigInput } from './config/index.js';
export type { Session } from './runtime/index.js';
