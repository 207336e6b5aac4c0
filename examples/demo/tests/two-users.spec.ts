import { test, expect } from 'playwright-multiauth';

test.use({ authUser: 'bob' });

test('bob may not delete an item; alice, in the same test, may', async ({ authedRequest, signInAs }) => {
  expect((await authedRequest.delete('/admin/items/1')).status()).toBe(403);

  const alice = await signInAs('alice');
  expect((await alice.request.delete('/admin/items/1')).status()).toBe(200);
  expect((await authedRequest.get('/admin/items')).ok()).toBe(true);
});
