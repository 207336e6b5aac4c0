import type { Locator } from 'playwright-core';

/**
 * What commands read from an element, the way WebDriver reads it: the rendered text (trimmed),
 * the `value` property, whether it is checked/selected, whether it is editable (Selenium IDE:
 * not disabled and not read-only).
 */

/**
 * The element's visible text, trimmed (WebDriver's getText).
 *
 * @example
 * await elementText(page.locator('h1'), 1000); // 'Welcome'
 */
export async function elementText(locator: Locator, timeout: number): Promise<string> {
  return (await locator.innerText({ timeout })).trim();
}

/**
 * The element's `value` property (inputs, selects, textareas), else its `value` attribute, else ''.
 *
 * @example
 * await elementValue(page.locator('#user'), 1000); // 'alice'
 */
export async function elementValue(locator: Locator, timeout: number): Promise<string> {
  return locator.evaluate(
    (el) => ('value' in el ? String((el as HTMLInputElement).value) : (el.getAttribute('value') ?? '')),
    undefined,
    { timeout },
  );
}

/**
 * Whether a checkbox or radio is checked, or an option selected (WebDriver's isSelected).
 *
 * @example
 * await isChecked(page.locator('#remember'), 1000); // true
 */
export async function isChecked(locator: Locator, timeout: number): Promise<boolean> {
  return locator.evaluate(
    (el) => ('checked' in el ? Boolean(el.checked) : 'selected' in el ? Boolean(el.selected) : false),
    undefined,
    { timeout },
  );
}

/**
 * Whether the element is editable as Selenium IDE judges it: not disabled and not read-only.
 *
 * @example
 * await isEditable(page.locator('#user'), 1000); // true
 */
export async function isEditable(locator: Locator, timeout: number): Promise<boolean> {
  return locator.evaluate(
    (el) => !(el as HTMLInputElement).disabled && !(el as HTMLInputElement).readOnly,
    undefined,
    { timeout },
  );
}

/**
 * The label and value of a select's first selected option ('' when none is selected).
 *
 * @example
 * await selectedOption(page.locator('#role'), 1000); // { label: 'Admin', value: 'admin' }
 */
export async function selectedOption(locator: Locator, timeout: number): Promise<{ label: string; value: string }> {
  return locator.evaluate(
    (el) => {
      const option = (el as HTMLSelectElement).selectedOptions?.[0];
      return { label: option ? option.text.trim() : '', value: option ? option.value : '' };
    },
    undefined,
    { timeout },
  );
}
