import { MultiAuthError } from '../../../core/errors.js';
import { expandTemplate, type SecretSink, type TemplateScope, type TemplateWhere } from '../../template/template.js';
import { seleniumKey, type SeleniumKey } from './keys.js';

/**
 * The variables of a browser step: the procedure's scope plus what `store*`, `executeScript` and
 * `opensWindow` set. Selenium IDE variables may hold any JSON value (`storeJson`, script results);
 * as text they are written as JSON unless they are strings.
 */
export class BrowserVariables {
  private readonly values = new Map<string, unknown>();
  private readonly setHere = new Set<string>();

  /**
   * @param scope the variables the procedure sees before the step (secrets: never printed).
   * @param secrets where values that templates derive from secrets go (the run's Redactor).
   */
  constructor(
    scope: TemplateScope,
    readonly secrets?: SecretSink,
  ) {
    for (const [name, value] of Object.entries(scope)) this.values.set(name, value);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  get(name: string): unknown {
    return this.values.get(name);
  }

  /** Sets a variable; it is returned by {@link BrowserVariables.stored}. */
  set(name: string, value: unknown): void {
    this.values.set(name, value);
    this.setHere.add(name);
  }

  /** Every variable as text, for `{{name}}` templates. */
  scope(): TemplateScope {
    const out: TemplateScope = {};
    for (const [name, value] of this.values) out[name] = variableText(value);
    return out;
  }

  /** The variables the step set, as text: they join the procedure's scope. */
  stored(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of this.setHere) out[name] = variableText(this.values.get(name));
    return out;
  }
}

/**
 * A variable's value as text: strings as they are, other values as JSON.
 *
 * @example
 * variableText({ a: 1 }); // '{"a":1}'
 */
export function variableText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/** Selenium IDE's own variable syntax, matched as its runtime does (`/\$\{(.*?)\}/g`). */
const SELENIUM_VARIABLE = /\$\{(.*?)\}/g;

type Token = { literal: string } | { name: string; raw: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of text.matchAll(SELENIUM_VARIABLE)) {
    if (match.index > last) tokens.push({ literal: text.slice(last, match.index) });
    tokens.push({ name: match[1] ?? '', raw: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) tokens.push({ literal: text.slice(last) });
  return tokens;
}

/**
 * Expands `${name}` (Selenium IDE) and `{{name}}` (this package) in one pass, so a value that
 * itself contains `${…}` or `{{…}}` is never expanded again. Leading and trailing whitespace of
 * the command's text is dropped first, as Selenium IDE does. `${nbsp}` is a non-breaking space.
 *
 * @throws MultiAuthError `TEMPLATE_UNKNOWN_VARIABLE` naming the variable and the command's path.
 * @example
 * expandText('Hello ${user}, {{ greeting }}', vars, where); // 'Hello alice, hi'
 */
export function expandText(text: string, vars: BrowserVariables, where: TemplateWhere): string {
  return tokenize(text.trim())
    .map((token) => {
      if ('literal' in token) return expandTemplate(token.literal, vars.scope(), where, vars.secrets);
      if (vars.has(token.name)) return variableText(vars.get(token.name));
      if (token.name === 'nbsp') return '\u00a0';
      throw unknownVariable(token.name, where);
    })
    .join('');
}

/** Text to type, or a special key, in the order a `sendKeys` value gives them. */
export type KeyPiece = { kind: 'text'; text: string } | SeleniumKey;

/**
 * Expands a `sendKeys` value into text and special keys. `${KEY_…}` is a key unless a variable of
 * that name exists; text that comes from a variable is always typed as text.
 *
 * @throws MultiAuthError `TEMPLATE_UNKNOWN_VARIABLE` for an unknown `${name}` that is not a key.
 * @example
 * expandKeys('{{password}}${KEY_ENTER}', vars, where);
 * // [{ kind: 'text', text: 's3cret' }, { kind: 'press', key: 'Enter' }]
 */
export function expandKeys(text: string, vars: BrowserVariables, where: TemplateWhere): KeyPiece[] {
  const pieces: KeyPiece[] = [];
  for (const token of tokenize(text.trim())) {
    if ('literal' in token) pieces.push({ kind: 'text', text: expandTemplate(token.literal, vars.scope(), where, vars.secrets) });
    else if (vars.has(token.name)) pieces.push({ kind: 'text', text: variableText(vars.get(token.name)) });
    else {
      const key = seleniumKey(token.name);
      if (!key) throw unknownVariable(token.name, where);
      pieces.push(key);
    }
  }
  return pieces.filter((piece) => piece.kind !== 'text' || piece.text !== '');
}

/** A script ready to run: its source and the values its `arguments` hold. */
export interface ExpandedScript {
  source: string;
  args: unknown[];
}

/**
 * Prepares an `executeScript`/`runScript` body the way Selenium IDE does: each `${name}` of a
 * known variable becomes `arguments[i]` and its value is passed as that argument (so a quote in a
 * value cannot break the script); an unknown `${…}` is left as written (a JavaScript template
 * literal). `{{name}}` is replaced by the value's text, as everywhere else in the config.
 *
 * @example
 * expandScript('return ${token}.length', vars, where); // { source: 'return arguments[0].length', args: ['abc'] }
 */
export function expandScript(text: string, vars: BrowserVariables, where: TemplateWhere): ExpandedScript {
  const args: unknown[] = [];
  const slots = new Map<string, number>();
  const source = tokenize(text.trim())
    .map((token) => {
      if ('literal' in token) return expandTemplate(token.literal, vars.scope(), where, vars.secrets);
      if (!vars.has(token.name)) return token.raw;
      let slot = slots.get(token.name);
      if (slot === undefined) {
        slot = args.push(vars.get(token.name)) - 1;
        slots.set(token.name, slot);
      }
      return `arguments[${slot}]`;
    })
    .join('');
  return { source, args };
}

/** The `${name}` references of a text (without keys), for checks before anything runs. */
export function seleniumVariables(text: string): string[] {
  return [...text.matchAll(SELENIUM_VARIABLE)].map((match) => match[1] ?? '');
}

function unknownVariable(name: string, where: TemplateWhere): MultiAuthError {
  return new MultiAuthError('TEMPLATE_UNKNOWN_VARIABLE', `unknown variable \${${name}}`, {
    path: where.path,
    context: { user: where.user, procedure: where.procedure, step: where.step },
    hint:
      `Set "${name}" with a store command (store, storeText, storeValue, executeScript, …) before this ` +
      `command, declare it in the user's variables, or fix the spelling. Special keys (\${KEY_ENTER}) ` +
      'work in sendKeys only.',
  });
}
