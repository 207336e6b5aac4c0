// Checked by `tsc` (npm test type-checks the tests after building): the package's public types are
// the zod schema's inferred types, reached the way users import them.
import type { z } from 'zod';
import type { AuthConfig, AuthConfigInput, Session } from 'playwright-multiauth';
import type { AuthConfig as AuthConfigSchema } from '../../src/config/schema/root.js';
import type { Session as RuntimeSession } from '../../src/runtime/session/session.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const configIsInferred: Equal<AuthConfig, z.infer<typeof AuthConfigSchema>> = true;
export const inputIsInferred: Equal<AuthConfigInput, z.input<typeof AuthConfigSchema>> = true;
export const sessionIsTheRuntimes: Equal<Session, RuntimeSession> = true;
// @ts-expect-error the check can fail: a hand-written look-alike is not the inferred type
export const lookAlike: Equal<AuthConfig, { presets: unknown[]; procedures: unknown[]; users: unknown[] }> = true;
