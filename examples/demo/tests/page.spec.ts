import { test, expect } from 'playwright-multiauth';

test.describe('as bob (form login cookie)', () => {
  test.use({ authUser: 'bob' });

  test('the app opens already signed in', async ({ page }) => {
    await page.goto('/app');
    await expect(page).toHaveURL(/\/app$/);
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'bob');
  });
});

test('without a user, the app asks to sign in', async ({ page }) => {
  await page.goto('/app');
  await expect(page).toHaveURL(/\/login/);
});
