import { test, expect } from 'playwright-multiauth';

// Runs as alice and as bob (projects roles-alice, roles-bob). The replay needs nothing here:
// what these tests send as their user is what it replays.
test('my orders: the list, and each order of it', async ({ authedRequest, authSession }) => {
  const { orders } = await (await authedRequest.get('/api/orders')).json();
  expect(orders).toHaveLength(1);
  const order = await (await authedRequest.get(`/api/orders/${orders[0].id}`)).json();
  expect(order.owner).toBe(authSession?.user);
});

test('the shop page: notices and who I am', async ({ page, authSession }) => {
  await page.goto('/api/notices');
  await expect(page.getByText('The shop closes')).toBeVisible();
  const me = await page.evaluate(async () => (await fetch('/whoami')).json());
  expect(me.user).toBe(authSession?.user);
});
