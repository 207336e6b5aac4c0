import { test, expect } from 'playwright-multiauth';

for (const user of ['alice', 'bob']) {
  test.describe(`${user}, by a mailed code`, () => {
    test.use({ authUser: user });

    test('is signed in', async ({ authedRequest }) => {
      expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user, via: 'cookie' });
    });
  });
}

test.describe('dave, by a magic link', () => {
  test.use({ authUser: 'dave' });

  test('is signed in, and his page too', async ({ authedRequest, page }) => {
    expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'dave' });
    await page.goto('/app');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'dave');
  });
});

test.describe('tina, by a password and a mailed code', () => {
  test.use({ authUser: 'tina' });

  test('is signed in', async ({ authedRequest }) => {
    expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'tina', via: 'cookie' });
  });
});
