import { test, expect } from 'playwright-multiauth';

test.describe('alice, seeded passkey', () => {
  test.use({ authUser: 'alice' });

  test('is signed in', async ({ page }) => {
    await page.goto('/app');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'alice');
  });

  test('her page answers a passkey sign-in itself (username-first)', async ({ page }) => {
    await page.goto('/passkeys/login');
    await page.fill('#username', 'alice');
    await page.click('#passkey-sign-in');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'alice');
  });
});

test.describe('dave, registered passkey', () => {
  test.use({ authUser: 'dave' });

  test('is signed in', async ({ page }) => {
    await page.goto('/app');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'dave');
  });
});
