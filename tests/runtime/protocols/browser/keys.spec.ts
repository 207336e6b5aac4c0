import { PLAYWRIGHT_KEYS, SELENIUM_KEY_NAMES, seleniumKey } from '../../../../src/runtime/protocols/browser/keys.js';
import { expect, test } from './support.js';

test('every Selenium IDE key maps to a key Playwright can press', async ({ page }) => {
  await page.setContent('<input id="k">');
  await page.focus('#k');
  for (const key of PLAYWRIGHT_KEYS) await page.keyboard.press(key);
  expect(SELENIUM_KEY_NAMES.every((name) => seleniumKey(name) !== undefined)).toBe(true);
});

test('seleniumKey reads the webdriver names and Selenium IDE\'s aliases', () => {
  expect(seleniumKey('KEY_ENTER')).toEqual({ kind: 'press', key: 'Enter' });
  expect(seleniumKey('KEY_BKSP')).toEqual({ kind: 'press', key: 'Backspace' });
  expect(seleniumKey('KEY_BACK_SPACE')).toEqual({ kind: 'press', key: 'Backspace' });
  expect(seleniumKey('KEY_PGDN')).toEqual({ kind: 'press', key: 'PageDown' });
  expect(seleniumKey('KEY_F12')).toEqual({ kind: 'press', key: 'F12' });
  expect(seleniumKey('KEY_NUMPAD7')).toEqual({ kind: 'press', key: 'Numpad7' });
  expect(seleniumKey('KEY_CTRL')).toEqual({ kind: 'modifier', key: 'Control' });
  expect(seleniumKey('KEY_COMMAND')).toEqual({ kind: 'modifier', key: 'Meta' });
  expect(seleniumKey('KEY_NULL')).toEqual({ kind: 'release' });
  expect(seleniumKey('KEY_ENTRE')).toBeUndefined();
  expect(seleniumKey('ENTER')).toBeUndefined();
});
