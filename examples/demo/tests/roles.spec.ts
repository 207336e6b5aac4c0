import { test, expect } from 'playwright-multiauth';

// Runs once per user (projects roles-alice, roles-bob, ...): who may delete items?
test('deleting an item is for admins only', async ({ authedRequest, authSession }) => {
  const me = await (await authedRequest.get('/whoami')).json();
  expect(me.user).toBe(authSession?.user);

  const items = (await (await authedRequest.get('/admin/items')).json()).items as Array<{ id: string }>;
  expect(items.length).toBeGreaterThan(0);

  const response = await authedRequest.delete(`/admin/items/${items.at(-1)!.id}`);
  expect(response.status()).toBe(me.role === 'admin' ? 200 : 403);
});
