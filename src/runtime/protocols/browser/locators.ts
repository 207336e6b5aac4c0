import type { BrowserCommand } from '../../../config/index.js';
import { didYouMean } from '../../../core/suggest.js';

/** How a Selenium IDE locator finds elements. */
export type LocatorStrategy = 'id' | 'name' | 'css' | 'xpath' | 'linkText' | 'partialLinkText';

/** A locator split into its strategy and what follows the prefix. */
export interface ParsedLocator {
  strategy: LocatorStrategy;
  selector: string;
}

/** The prefixes Selenium IDE writes (`link=` is the older spelling of `linkText=`). */
const PREFIXES: Readonly<Record<string, LocatorStrategy>> = {
  id: 'id',
  name: 'name',
  css: 'css',
  xpath: 'xpath',
  link: 'linkText',
  linkText: 'linkText',
  partialLinkText: 'partialLinkText',
};

/** Locator prefixes accepted in `target` and `targets`, for messages and docs. */
export const LOCATOR_PREFIXES: readonly string[] = Object.keys(PREFIXES).map((p) => `${p}=`);

const PREFIX = /^([A-Za-z]+)=([\s\S]*)$/;

/**
 * Parses a Selenium IDE locator: `id=`, `name=`, `css=`, `xpath=`, `linkText=` (or `link=`),
 * `partialLinkText=`, a bare XPath (`//…`, `(//…)[1]`, `./…`) or bare CSS (anything else).
 * `strategy` is the second half of a `.side` `targets` pair (`css:finder`, `xpath:attributes`,
 * `id`, …); it decides how a locator without a prefix is read.
 *
 * @returns the parsed locator, or a message saying what is wrong with it.
 * @example
 * parseLocator('id=username');                  // { strategy: 'id', selector: 'username' }
 * parseLocator('//button[@type="submit"]');      // { strategy: 'xpath', selector: '//button[@type="submit"]' }
 * parseLocator('form > input[name=user]');       // { strategy: 'css', selector: 'form > input[name=user]' }
 * parseLocator('dom=document.forms[0]');         // 'unknown locator prefix "dom=" …'
 */
export function parseLocator(text: string, strategy?: string): ParsedLocator | string {
  const locator = text.trim();
  if (!locator) return 'the locator is empty';
  const prefixed = PREFIX.exec(locator);
  if (prefixed) {
    const [, prefix = '', selector = ''] = prefixed;
    const known = PREFIXES[prefix];
    if (!known) {
      return `unknown locator prefix "${prefix}="${didYouMean(prefix, Object.keys(PREFIXES))}; ` +
        `use one of ${LOCATOR_PREFIXES.join(', ')}, or a bare CSS selector or XPath`;
    }
    if (!selector.trim()) return `the locator "${locator}" has nothing after "${prefix}="`;
    return { strategy: known, selector };
  }
  const hinted = strategyOf(strategy);
  if (hinted) return { strategy: hinted, selector: locator };
  if (/^\(*\.{0,2}\//.test(locator)) return { strategy: 'xpath', selector: locator };
  return { strategy: 'css', selector: locator };
}

function strategyOf(strategy: string | undefined): LocatorStrategy | undefined {
  if (!strategy) return undefined;
  const base = strategy.split(':')[0] ?? '';
  return PREFIXES[base];
}

/**
 * The Playwright selector for a parsed locator. `linkText` matches links whose text, with
 * whitespace collapsed, equals the given text; `partialLinkText` links whose text contains it
 * (both case-sensitive, as WebDriver's link text strategies are).
 *
 * @example
 * toSelector({ strategy: 'id', selector: 'user' });          // '[id="user"]'
 * toSelector({ strategy: 'linkText', selector: 'Sign in' }); // 'xpath=//a[normalize-space(.)="Sign in"]'
 */
export function toSelector(locator: ParsedLocator): string {
  switch (locator.strategy) {
    case 'id':
      return `[id=${cssString(locator.selector)}]`;
    case 'name':
      return `[name=${cssString(locator.selector)}]`;
    case 'css':
      return `css=${locator.selector}`;
    case 'xpath':
      return `xpath=${locator.selector}`;
    case 'linkText':
      return `xpath=//a[normalize-space(.)=${xpathString(collapse(locator.selector))}]`;
    case 'partialLinkText':
      return `xpath=//a[contains(normalize-space(.), ${xpathString(collapse(locator.selector))})]`;
  }
}

/** One locator to try, with the `.side` strategy that produced it (when known). */
export interface LocatorCandidate {
  locator: string;
  strategy?: string;
}

/**
 * The locators a command may use, in the order they are tried: `target`, then each of `targets`
 * (a string, a list of strings, or `.side`'s list of `[locator, strategy]` pairs), without
 * repeats. Nothing is expanded here.
 *
 * @example
 * locatorCandidates({ id: 'c', command: 'click', target: 'id=go',
 *   targets: [['id=go', 'id'], ['css=#go', 'css:finder']] });
 * // [{ locator: 'id=go' }, { locator: 'css=#go', strategy: 'css:finder' }]
 */
export function locatorCandidates(command: BrowserCommand): LocatorCandidate[] {
  const out: LocatorCandidate[] = [{ locator: command.target }];
  const seen = new Set([command.target]);
  for (const candidate of alternatives(command)) {
    if (!candidate.locator.trim() || seen.has(candidate.locator)) continue;
    seen.add(candidate.locator);
    out.push(candidate);
  }
  return out;
}

/**
 * `targets` normalised to candidates, each with its index in `targets` (for config paths).
 *
 * @example
 * alternatives({ id: 'c', command: 'click', target: 'id=go', targets: [['css=#go', 'css:finder']] });
 * // [{ locator: 'css=#go', strategy: 'css:finder', index: 0 }]
 */
export function alternatives(command: BrowserCommand): Array<LocatorCandidate & { index?: number }> {
  const { targets } = command;
  if (targets === undefined) return [];
  if (typeof targets === 'string') return [{ locator: targets }];
  return targets.map((entry, index) =>
    typeof entry === 'string'
      ? { locator: entry, index }
      : { locator: entry[0] ?? '', strategy: entry[1], index },
  );
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\a ')}"`;
}

/** An XPath 1.0 string literal; a text holding both kinds of quote becomes a `concat()`. */
function xpathString(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  return `concat(${text.split('"').map((part) => `"${part}"`).join(`, '"', `)})`;
}
