// Checked by `tsc` (npm test type-checks the tests after building): the package's public types are
// the zod schema's inferred types, reached the way users import them, and name nothing internal.
import type { z } from 'zod';
import { authFixtures, test, type AuthConfig, type AuthConfigInput, type AuthUserName, type Session } from 'playwright-multiauth';
// @ts-expect-error the compiled Plan is internal: users write the config, never the plan
import type { Plan } from 'playwright-multiauth';
import type { AuthConfig as AuthConfigSchema } from '../../src/config/schema/root.js';
import type { Session as RuntimeSession } from '../../src/runtime/session/session.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const configIsInferred: Equal<AuthConfig, z.infer<typeof AuthConfigSchema>> = true;
export const inputIsInferred: Equal<AuthConfigInput, z.input<typeof AuthConfigSchema>> = true;
export const sessionIsTheRuntimes: Equal<Session, RuntimeSession> = true;
// @ts-expect-error the check can fail: a hand-written look-alike is not the inferred type
export const lookAlike: Equal<AuthConfig, { presets: unknown[]; procedures: unknown[]; users: unknown[] }> = true;

// Without a declaration from `multiauth types`, a user name is any string: nothing breaks.
export const namesAreStrings: Equal<AuthUserName, string> = true;

/** Names starting with `_`: Playwright's convention for fixtures no spec should use. */
type Internal<K> = Extract<K, `_${string}`>;

export const authFixturesNameNoInternal: Equal<Internal<keyof typeof authFixtures>, never> = true;
// @ts-expect-error the check can fail: the fixtures do define internal ones, only their type hides them
export const internalNamesAreFound: Equal<Internal<keyof typeof authFixtures | '_multiauth'>, never> = true;

type TestFixtureNames = typeof test extends { extend<T extends object>(fixtures: infer F): unknown } ? keyof F : never;
export const testNamesNoInternal: Equal<Internal<TestFixtureNames>, never> = true;
export const testNamesTheFixtures: Equal<Extract<TestFixtureNames, 'authUser' | 'authConfig' | 'authedRequest' | 'authSession' | 'signInAs'>, 'authUser' | 'authConfig' | 'authedRequest' | 'authSession' | 'signInAs'> = true;

/** Never called: what a spec may destructure, as the compiler sees it. */
export function specView(): void {
  test('public fixtures', async ({ authUser, authedRequest, authSession, signInAs }) => {
    void [authUser, authedRequest, authSession, signInAs];
  });
  // @ts-expect-error the worker's WorkerAuth is internal
  test('internal worker fixture', async ({ _multiauth }) => void _multiauth);
  // @ts-expect-error the resolved session holder is internal
  test('internal test fixture', async ({ _authResolved }) => void _authResolved);
}
