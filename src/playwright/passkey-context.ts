import type { BrowserContext } from '@playwright/test';
import type { Redactor } from '../core/redactor.js';
import { heldPasskeys, seedPasskey, type PasskeyCredential, type Session } from '../runtime/index.js';
import { toSpecError } from './spec-error.js';

/** What a test context needs of the worker's sessions for a passkey (`WorkerAuth`). */
export interface PasskeyKeeper {
  passkeyFor(session: Session): Promise<PasskeyCredential | undefined>;
  keepPasskey(user: string, seeded: PasskeyCredential, held: readonly PasskeyCredential[]): Promise<void>;
}

/**
 * Seeds the passkey of a signed-in user's session into a test's browser context and installs the
 * virtual authenticator, before its first page: a test page's `navigator.credentials.get()` is
 * answered with the user's passkey, at the latest counter the store knows. Returns what to call
 * before the context closes: it keeps the counter the test's pages left. Nothing for a session
 * without a passkey.
 *
 * @throws MultiAuthError `PASSKEY_UNSUPPORTED` on a Playwright older than 1.61.
 * @example
 * const keep = await seedSessionPasskey(context, session, workerAuth);
 * await use(context);
 * await keep();
 */
export async function seedSessionPasskey(context: BrowserContext, session: Session, keeper: PasskeyKeeper, redactor?: Redactor): Promise<() => Promise<void>> {
  const seeded = await keeper.passkeyFor(session);
  if (!seeded) return async () => {};
  try {
    await seedPasskey(context, seeded, { user: session.user });
  } catch (error) {
    // A user's mistake (an old Playwright, a key that does not parse): its text, masked, no stack.
    throw toSpecError(error, redactor);
  }
  return async () => {
    // Best effort: a context the test closed itself has nothing to read any more.
    const held = await heldPasskeys(context).catch(() => []);
    await keeper.keepPasskey(session.user, seeded, held);
  };
}
