/** The users of the store tests: one test each, so a run needs each of them signed in once. */
export const WHOAMI_USERS = ['alice', 'bob', 'carol', 'dave'];

/**
 * An inline project's spec with one test per user of {@link WHOAMI_USERS}, each checking that the
 * demo server's `/whoami` names that user: what the session-store tests count sign-ins with.
 */
export const WHOAMI_USERS_SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const user of ${JSON.stringify(WHOAMI_USERS)}) {
  test.describe(() => {
    test.use({ authUser: user });
    test(user, async ({ authedRequest }) => {
      expect((await (await authedRequest.post('/whoami', { data: {} })).json()).user).toBe(user);
    });
  });
}
`;
