/**
 * Selenium IDE's special keys (`${KEY_ENTER}` in a `sendKeys` value): the names of
 * selenium-webdriver's `Key` table plus the aliases Selenium IDE's own playback accepted
 * (`KEY_BKSP`, `KEY_PGUP`, `KEY_DEL`, …), mapped to Playwright key names.
 */

/** What a special key does: press a key, hold a modifier, or release every held modifier. */
export type SeleniumKey =
  | { kind: 'press'; key: string }
  | { kind: 'modifier'; key: 'Shift' | 'Control' | 'Alt' | 'Meta' }
  | { kind: 'release' };

const PRESS: Readonly<Record<string, string>> = {
  ENTER: 'Enter', RETURN: 'Enter', NUMPAD_ENTER: 'NumpadEnter',
  TAB: 'Tab',
  BACK_SPACE: 'Backspace', BACKSPACE: 'Backspace', BKSP: 'Backspace',
  DELETE: 'Delete', DEL: 'Delete',
  INSERT: 'Insert', INS: 'Insert',
  ESCAPE: 'Escape', ESC: 'Escape',
  SPACE: 'Space',
  HOME: 'Home', END: 'End',
  PAGE_UP: 'PageUp', PGUP: 'PageUp', PAGE_DOWN: 'PageDown', PGDN: 'PageDown',
  LEFT: 'ArrowLeft', ARROW_LEFT: 'ArrowLeft', RIGHT: 'ArrowRight', ARROW_RIGHT: 'ArrowRight',
  UP: 'ArrowUp', ARROW_UP: 'ArrowUp', DOWN: 'ArrowDown', ARROW_DOWN: 'ArrowDown',
  // Playwright has no "Clear" key; the keypad's 5 without NumLock is the key that sends it.
  PAUSE: 'Pause', CLEAR: 'Numpad5',
  SEMICOLON: 'Semicolon', EQUALS: 'Equal',
  MULTIPLY: 'NumpadMultiply', ADD: 'NumpadAdd', SUBTRACT: 'NumpadSubtract',
  DECIMAL: 'NumpadDecimal', DIVIDE: 'NumpadDivide',
  ...numbered('NUMPAD', 'Numpad', 0, 9),
  ...numbered('F', 'F', 1, 12),
};

const MODIFIERS: Readonly<Record<string, 'Shift' | 'Control' | 'Alt' | 'Meta'>> = {
  SHIFT: 'Shift', CONTROL: 'Control', CTRL: 'Control', ALT: 'Alt', META: 'Meta', COMMAND: 'Meta',
};

function numbered(from: string, to: string, first: number, last: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = first; i <= last; i++) out[`${from}${i}`] = `${to}${i}`;
  return out;
}

/** Every key name a `sendKeys` value may use, with the `KEY_` prefix. */
export const SELENIUM_KEY_NAMES: readonly string[] = [
  ...Object.keys(PRESS),
  ...Object.keys(MODIFIERS),
  'NULL',
].map((name) => `KEY_${name}`);

/** The Playwright key names {@link seleniumKey} can produce, for tests of the table. */
export const PLAYWRIGHT_KEYS: readonly string[] = [...new Set([...Object.values(PRESS), ...Object.values(MODIFIERS)])];

/**
 * What `${KEY_…}` means. Modifiers (`KEY_SHIFT`, `KEY_CONTROL`, `KEY_ALT`, `KEY_META`) stay held
 * until `KEY_NULL` or the end of the value, as with WebDriver.
 *
 * @param name the name inside `${…}`, e.g. `KEY_ENTER`
 * @returns undefined for a name that is not a key
 * @example
 * seleniumKey('KEY_ENTER'); // { kind: 'press', key: 'Enter' }
 * seleniumKey('KEY_SHIFT'); // { kind: 'modifier', key: 'Shift' }
 * seleniumKey('KEY_NOPE');  // undefined
 */
export function seleniumKey(name: string): SeleniumKey | undefined {
  if (!name.startsWith('KEY_')) return undefined;
  const bare = name.slice(4);
  if (bare === 'NULL') return { kind: 'release' };
  const press = PRESS[bare];
  if (press) return { kind: 'press', key: press };
  const modifier = MODIFIERS[bare];
  if (modifier) return { kind: 'modifier', key: modifier };
  return undefined;
}
