/**
 * The language inside `{{ }}`: a variable, a quoted string, a whole number, `a + b` (text
 * concatenation) and calls of the functions in {@link TEMPLATE_FUNCTIONS}. Parsing lives here (core)
 * so that compile checks a config with the same parser the runtime evaluates with; evaluation lives
 * in `runtime/template/`.
 */

/** A parsed template expression. */
export type TemplateExpr =
  | { kind: 'var'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'call'; name: string; args: TemplateExpr[] }
  | { kind: 'concat'; parts: TemplateExpr[] };

/** A function of the template language: how many arguments it takes, and how it is written. */
export interface TemplateFunctionSpec {
  min: number;
  max: number;
  signature: string;
}

/**
 * The functions `{{ }}` may call: pure, apart from `uuid()`, `now()` and `webauthn_assertion()`, which
 * signs with the user's passkey and counter (see docs/format.md "Templating").
 */
export const TEMPLATE_FUNCTIONS: Readonly<Record<string, TemplateFunctionSpec>> = Object.freeze({
  base64: { min: 1, max: 1, signature: 'base64(text)' },
  base64url: { min: 1, max: 1, signature: 'base64url(text)' },
  urlencode: { min: 1, max: 1, signature: 'urlencode(text)' },
  basic: { min: 2, max: 2, signature: 'basic(user, password)' },
  totp: { min: 1, max: 4, signature: 'totp(secret[, digits, period, algorithm])' },
  uuid: { min: 0, max: 0, signature: 'uuid()' },
  now: { min: 0, max: 0, signature: 'now()' },
  webauthn_assertion: { min: 1, max: 2, signature: 'webauthn_assertion(options[, origin])' },
});

/** Variables every sign-in has: fresh for each sign-in, the same within one (a PKCE pair, `state`, `nonce`). */
export const SIGN_IN_VALUE_NAMES = ['pkce_verifier', 'pkce_challenge', 'state', 'nonce'] as const;

/** One `{{ … }}` of a text: what lies between the braces is an expression (a string literal cannot hold `}}`). */
export interface TemplateBlock {
  /** Index of its `{{`. */
  start: number;
  /** Index just past its `}}`. */
  end: number;
  /** What lies between the braces. */
  source: string;
}

/** The `{{ … }}` blocks of a text, left to right, and where a `{{` that nothing closes begins. */
export interface TemplateScan {
  blocks: TemplateBlock[];
  /** Index of the first `{{` that no `}}` follows (no block starts after it). */
  unclosed?: number;
}

/**
 * Finds the `{{ … }}` blocks of `text`: each `{{` is closed by the first `}}` after it. One pass
 * with `indexOf`, linear in the text's length: a lazy regular expression would scan to the end of
 * the text from every `{{` that nothing closes (80,000 of them took 10 s).
 *
 * @example
 * scanTemplate('a {{ x }} b {{ y');
 * // { blocks: [{ start: 2, end: 9, source: ' x ' }], unclosed: 12 }
 */
export function scanTemplate(text: string): TemplateScan {
  const blocks: TemplateBlock[] = [];
  for (let open = text.indexOf('{{'); open !== -1; ) {
    const close = text.indexOf('}}', open + 2);
    if (close === -1) return { blocks, unclosed: open };
    blocks.push({ start: open, end: close + 2, source: text.slice(open + 2, close) });
    open = text.indexOf('{{', close + 2);
  }
  return { blocks };
}

/**
 * Whether `text` holds a whole `{{ … }}` block (a `{{` with a `}}` after it).
 *
 * @example
 * holdsTemplateBlock('user={{username}}'); // true
 * holdsTemplateBlock('a={{b');             // false
 */
export function holdsTemplateBlock(text: string): boolean {
  const open = text.indexOf('{{');
  return open !== -1 && text.indexOf('}}', open + 2) !== -1;
}

/**
 * The message for a `{{` that nothing closes (it names no value: the text may be a secret).
 *
 * @example
 * unclosedMessage(12); // 'a {{ at character 13 is not closed by }}'
 */
export function unclosedMessage(at: number): string {
  return `a {{ at character ${at + 1} is not closed by }}`;
}

/**
 * Bounds on what templates make at run time (re-exported by `config/limits.ts`, docs/security.md):
 * an expression may nest calls 16 deep over a server's value (`base64(base64(…))` over a 4 MiB
 * token grew to 1.36 GB before this bound), so each result is checked before it is built.
 */
export const TEMPLATE_LIMITS = Object.freeze({
  /**
   * Characters of one function's result, of one `a + b`, and of all the text one step's templates
   * expand to (a request, a browser command's argument). Room for a server's largest body (5 MiB)
   * in Base64.
   */
  resultChars: 8 * 1024 * 1024,
});

/** Longest expression between `{{` and `}}`, and deepest nesting of calls: configs are untrusted. */
const MAX_SOURCE = 2000;
const MAX_DEPTH = 16;

/** A template that cannot be parsed; the message names no value written in it (it may be a secret). */
export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
}

const IDENTIFIER = /[A-Za-z_][\w.-]*/y;
const NUMBER = /\d{1,9}(?![\w.])/y;

/**
 * Parses what lies between `{{` and `}}`.
 *
 * @throws TemplateSyntaxError for bad syntax, an unknown function or a wrong number of arguments.
 * @example
 * parseTemplateExpression(' basic(username, password) ');
 * // { kind: 'call', name: 'basic', args: [{ kind: 'var', name: 'username' }, { kind: 'var', name: 'password' }] }
 */
export function parseTemplateExpression(source: string): TemplateExpr {
  if (source.length > MAX_SOURCE) throw new TemplateSyntaxError(`the expression is longer than ${MAX_SOURCE} characters`);
  let at = 0;
  const skip = (): void => {
    while (at < source.length && /\s/.test(source[at]!)) at++;
  };
  const fail = (what: string): never => {
    throw new TemplateSyntaxError(`${what} at character ${at + 1} of the expression`);
  };
  const expression = (depth: number): TemplateExpr => {
    const parts = [primary(depth)];
    skip();
    while (source[at] === '+') {
      at++;
      parts.push(primary(depth));
      skip();
    }
    return parts.length === 1 ? parts[0]! : { kind: 'concat', parts };
  };
  const primary = (depth: number): TemplateExpr => {
    if (depth > MAX_DEPTH) fail(`calls nested deeper than ${MAX_DEPTH}`);
    skip();
    const char = source[at];
    if (char === undefined) return fail('a value is missing');
    if (char === '"' || char === "'") return { kind: 'string', value: quoted(char) };
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(source);
    if (number) {
      at += number[0].length;
      return { kind: 'number', value: Number(number[0]) };
    }
    IDENTIFIER.lastIndex = at;
    const identifier = IDENTIFIER.exec(source);
    if (!identifier) return fail(`unexpected "${char}"`);
    at += identifier[0].length;
    const name = identifier[0];
    skip();
    if (source[at] !== '(') return { kind: 'var', name };
    at++;
    const args: TemplateExpr[] = [];
    skip();
    if (source[at] === ')') at++;
    else {
      for (;;) {
        args.push(expression(depth + 1));
        skip();
        if (source[at] === ',') {
          at++;
          continue;
        }
        if (source[at] === ')') {
          at++;
          break;
        }
        fail(source[at] === undefined ? `${name}( is not closed` : `expected "," or ")"`);
      }
    }
    checkCall(name, args.length);
    return { kind: 'call', name, args };
  };
  const quoted = (quote: string): string => {
    const start = at;
    at++;
    let value = '';
    while (at < source.length && source[at] !== quote) {
      if (source[at] === '\\' && at + 1 < source.length) at++;
      value += source[at];
      at++;
    }
    if (at >= source.length) {
      at = start;
      fail('a string is not closed');
    }
    at++;
    return value;
  };
  const result = expression(0);
  skip();
  if (at < source.length) fail(`unexpected "${source[at]}"`);
  return result;
}

function checkCall(name: string, count: number): void {
  if (!Object.hasOwn(TEMPLATE_FUNCTIONS, name)) {
    throw new TemplateSyntaxError(`unknown function ${name}() (the functions are ${Object.keys(TEMPLATE_FUNCTIONS).map((f) => `${f}()`).join(', ')})`);
  }
  const spec = TEMPLATE_FUNCTIONS[name]!;
  if (count < spec.min || count > spec.max) {
    const takes = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
    throw new TemplateSyntaxError(`${name}() takes ${takes} argument${spec.max === 1 ? '' : 's'} (${spec.signature}), got ${count}`);
  }
}

/**
 * The variables an expression reads, in order of first appearance.
 *
 * @example
 * expressionVariables(parseTemplateExpression('basic(username, password)')); // ['username', 'password']
 */
export function expressionVariables(expr: TemplateExpr): string[] {
  const names = new Set<string>();
  const visit = (node: TemplateExpr): void => {
    if (node.kind === 'var') names.add(node.name);
    else if (node.kind === 'call') node.args.forEach(visit);
    else if (node.kind === 'concat') node.parts.forEach(visit);
  };
  visit(expr);
  return [...names];
}

/**
 * Whether an expression calls `name` somewhere.
 *
 * @example
 * callsFunction(parseTemplateExpression('totp(seed)'), 'totp'); // true
 */
export function callsFunction(expr: TemplateExpr, name: string): boolean {
  if (expr.kind === 'call') return expr.name === name || expr.args.some((arg) => callsFunction(arg, name));
  if (expr.kind === 'concat') return expr.parts.some((part) => callsFunction(part, name));
  return false;
}

const parsed = new Map<string, TemplateExpr | TemplateSyntaxError>();
/** Distinct expressions remembered; a config has a few dozen, a hostile one cannot grow this. */
const PARSED_LIMIT = 5000;

/**
 * {@link parseTemplateExpression}, remembered: a plan's templates are expanded at every sign-in.
 *
 * @example
 * parsedTemplate('username'); // { kind: 'var', name: 'username' }
 */
export function parsedTemplate(source: string): TemplateExpr {
  let result = parsed.get(source);
  if (result === undefined) {
    try {
      result = parseTemplateExpression(source);
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      result = error;
    }
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(source, result);
  }
  if (result instanceof TemplateSyntaxError) throw result;
  return result;
}
