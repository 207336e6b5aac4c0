import { compileUserRegex } from '../../../core/regex.js';
import { didYouMean } from '../../../core/suggest.js';
import { seleniumVariables } from './expand.js';
import { SELENIUM_KEY_NAMES, seleniumKey } from './keys.js';
import { parseLocator } from './locators.js';

/**
 * What a command's `target` or `value` holds. Each kind says how it is expanded (scripts and key
 * sequences have their own rules) and what `multiauth validate` can check before anything runs.
 */
export type ArgKind =
  | 'locator'
  | 'attributeLocator'
  | 'frameLocator'
  | 'windowLocator'
  | 'optionLocator'
  | 'keys'
  | 'url'
  | 'text'
  | 'script'
  | 'condition'
  | 'variable'
  | 'milliseconds'
  | 'seconds'
  | 'count'
  | 'resolution'
  | 'coordinates'
  | 'json'
  | 'waitCondition';

/** One argument of a command: its kind and whether the command needs it. */
export interface ArgSpec {
  kind: ArgKind;
  required: boolean;
}

/**
 * A required argument, for the command table.
 *
 * @example
 * required('locator'); // { kind: 'locator', required: true }
 */
export const required = (kind: ArgKind): ArgSpec => ({ kind, required: true });

/**
 * An optional argument, for the command table.
 *
 * @example
 * optional('milliseconds'); // { kind: 'milliseconds', required: false }
 */
export const optional = (kind: ArgKind): ArgSpec => ({ kind, required: false });

/** How each kind reads, for docs and messages. */
export const ARG_DESCRIPTIONS: Readonly<Record<ArgKind, string>> = {
  locator: 'element locator',
  attributeLocator: 'locator@attribute',
  frameLocator: 'index=N, relative=parent, relative=top, or a locator',
  windowLocator: 'handle=${name}, win_ser_local, win_ser_N, name=…, title=…',
  optionLocator: 'label=…, value=…, index=N, id=… (bare = label)',
  keys: 'text and ${KEY_…} keys',
  url: 'URL (relative to the project url)',
  text: 'text',
  script: 'JavaScript (function body)',
  condition: 'JavaScript expression',
  variable: 'variable name',
  milliseconds: 'milliseconds',
  seconds: 'seconds',
  count: 'number of times',
  resolution: 'WIDTHxHEIGHT',
  coordinates: 'x,y',
  json: 'JSON',
  waitCondition: 'request_url_contains=REGEX, or seconds',
};

/**
 * True when the text holds a `{{name}}` or `${name}` that only the run can resolve.
 *
 * @example
 * hasTemplate('{{size}}'); // true
 * hasTemplate('1280x800'); // false
 */
export function hasTemplate(text: string): boolean {
  return /\{\{\s*[A-Za-z_][\w.-]*\s*\}\}/.test(text) || seleniumVariables(text).length > 0;
}

const NUMBER = /^\d+(\.\d+)?$/;

/**
 * What is wrong with an argument, judged before the run; undefined when nothing is (or when a
 * template hides the part that would be checked).
 *
 * @example
 * checkArg('resolution', '1280 by 800'); // 'expected WIDTHxHEIGHT, e.g. 1280x800'
 * checkArg('keys', 'x${KEY_ENTRE}');     // 'unknown key ${KEY_ENTRE} (did you mean "KEY_ENTER"?)'
 */
export function checkArg(kind: ArgKind, text: string): string | undefined {
  const value = text.trim();
  switch (kind) {
    case 'locator':
      return checkLocator(value);
    case 'attributeLocator': {
      const at = value.lastIndexOf('@');
      if (at <= 0 || at === value.length - 1) return 'expected LOCATOR@ATTRIBUTE, e.g. id=logo@src';
      return checkLocator(value.slice(0, at));
    }
    case 'frameLocator':
      if (/^(index=|relative=)/.test(value)) {
        return /^(index=\d+(\\(\d+|\.\.))*|relative=(parent|top))$/.test(value) || hasTemplate(value)
          ? undefined
          : 'expected index=N, relative=parent or relative=top';
      }
      return /^[\w-]+$/.test(value) ? undefined : checkLocator(value);
    case 'windowLocator':
      return /^(handle=.+|name=.+|title=.+|win_ser_local|win_ser_\d+)$/s.test(value) || hasTemplate(value)
        ? undefined
        : 'expected handle=${name}, win_ser_local, win_ser_N, name=WINDOW_NAME or title=TITLE';
    case 'optionLocator': {
      const prefixed = /^([A-Za-z]+)=(.*)$/s.exec(value);
      if (!prefixed) return undefined;
      const [, prefix = '', rest = ''] = prefixed;
      if (!['label', 'value', 'index', 'id'].includes(prefix)) {
        return `unknown option locator "${prefix}="; use label=, value=, index= or id=`;
      }
      return prefix === 'index' && !/^\d+$/.test(rest) && !hasTemplate(rest) ? 'index= takes a number' : undefined;
    }
    case 'keys':
      return checkKeys(value);
    case 'milliseconds':
    case 'seconds':
      return NUMBER.test(value) || hasTemplate(value) ? undefined : `expected a number of ${kind}`;
    case 'count':
      return /^\d+$/.test(value) || hasTemplate(value) ? undefined : 'expected a whole number of times, e.g. 3';
    case 'resolution':
      return /^\d+x\d+$/.test(value) || hasTemplate(value) ? undefined : 'expected WIDTHxHEIGHT, e.g. 1280x800';
    case 'coordinates':
      return /^-?\d+\s*,\s*-?\d+$/.test(value) || hasTemplate(value) ? undefined : 'expected x,y, e.g. 10,5';
    case 'json':
      return hasTemplate(value) || isJson(value) ? undefined : 'expected JSON';
    case 'waitCondition':
      return checkWaitCondition(value);
    case 'variable':
      return /^[^\s${}]+$/.test(value) ? undefined : `"${value}" is not a variable name`;
    default:
      return undefined;
  }
}

function checkLocator(text: string): string | undefined {
  const parsed = parseLocator(text);
  return typeof parsed === 'string' && !hasTemplate(text.split('=')[0] ?? '') ? parsed : undefined;
}

function checkKeys(text: string): string | undefined {
  for (const name of seleniumVariables(text)) {
    if (!name.startsWith('KEY_') || seleniumKey(name)) continue;
    return `unknown key \${${name}}${didYouMean(name, SELENIUM_KEY_NAMES)}`;
  }
  return undefined;
}

function checkWaitCondition(text: string): string | undefined {
  if (text === '' || NUMBER.test(text) || hasTemplate(text)) return undefined;
  const condition = /^request_url_contains=(.+)$/s.exec(text);
  if (!condition) return 'expected request_url_contains=REGEX, or a number of seconds';
  try {
    compileUserRegex(condition[1] ?? '');
    return undefined;
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message}`;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
