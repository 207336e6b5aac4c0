import { MultiAuthError } from '../../core/errors.js';
import type { ConfigPath } from '../../core/path.js';
import { parsedTemplate, scanTemplate, TEMPLATE_LIMITS, TemplateSyntaxError, unclosedMessage } from '../../core/template-expr.js';
import { evaluateTemplate, mentionsTotp, totpWaitMs, type EvaluationScope } from './functions.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { isPlainObject } from '../../core/json-path.js';
import type { WebAuthnSigner } from './webauthn.js';

/**
 * The variables a `{{ name }}` template can use at one point of a procedure: the user's variables,
 * `username`/`password`, and everything extracted so far (see {@link initialScope}). Values are
 * secrets: never print them.
 */
export type TemplateScope = Record<string, string>;

/** Where a template is expanded: named in the error when a variable is unknown. */
export interface TemplateWhere {
  user: string;
  procedure?: string;
  /** Zero-based operation index within the procedure. */
  step?: number;
  /** Config path of the value being expanded (an element's `origin`, e.g. `['procedures', 0, 'operations', 1, 'parameters']`). */
  path?: ConfigPath;
  /** The user's passkey and the sign-in's counter, for `webauthn_assertion()`. */
  webauthn?: WebAuthnSigner;
  /** The origin of the request being expanded (`webauthn_assertion()`'s default), computed when asked. */
  requestOrigin?: () => string | undefined;
}

/** Where the values that templates derive from secrets go: the run's Redactor. */
export interface SecretSink {
  add(...values: string[]): unknown;
}

/**
 * Expands every `{{ name }}` in the strings inside `value` (objects and arrays are walked; object
 * keys, numbers, booleans and null are kept as they are). The substitution is done string by
 * string on the structured value, never on serialised JSON, so a quote or a brace in a variable
 * cannot change the shape of a body. `value` is not modified: what holds a template is copied, and
 * what holds none is shared with the result (it is often most of a request).
 *
 * Every value an expression derives from a secret (`basic(username, password)`, `base64(…)`, a
 * TOTP code, `'Bearer ' + token`) goes to `secrets`, the run's Redactor, before it is used: a
 * server that echoes it finds it masked. The text all templates of `value` expand to is at most
 * `TEMPLATE_LIMITS.resultChars`.
 *
 * @throws MultiAuthError `TEMPLATE_UNKNOWN_VARIABLE` when a name is not in `scope`: the error names
 *   the variable, the user, procedure, step and config path, and lists the names that are defined
 *   (names only, never values); `TEMPLATE_INVALID` for a `{{` that does not parse or is not closed;
 *   `TEMPLATE_FUNCTION_FAILED` for a function that refuses its arguments or a result past the limit.
 * @example
 * expandTemplate({ body: { user: '{{ username }}' } }, { username: 'alice' }, { user: 'alice' }, redactor);
 * // { body: { user: 'alice' } }
 */
export function expandTemplate<T>(value: T, scope: TemplateScope, where: TemplateWhere, secrets?: SecretSink): T {
  return walk(value, { scope, where, secrets, chars: 0 }, []) as T;
}

/** One expansion: what it reads, where it is, where derived secrets go, and the text made so far. */
interface Expansion {
  scope: TemplateScope;
  where: TemplateWhere;
  secrets: SecretSink | undefined;
  chars: number;
}

const templatedValues = new WeakMap<object, boolean>();

/**
 * Whether any string inside `value` holds `{{`; known once per object (a plan's request templates
 * do not change, and most hold no template outside their body, if any at all).
 *
 * @example
 * if (holdsTemplate(op.request)) request = expandTemplate(op.request, scope, where);
 */
export function holdsTemplate(value: object): boolean {
  let holds = templatedValues.get(value);
  if (holds === undefined) templatedValues.set(value, (holds = containsTemplate(value)));
  return holds;
}

function containsTemplate(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(containsTemplate);
  return isPlainObject(value) && Object.values(value).some(containsTemplate);
}

/**
 * `path` is one stack below `where.path`, pushed and popped on the way down: it is copied only
 * into an error. A container is copied when the first of its items changes.
 */
function walk(value: unknown, expansion: Expansion, path: Array<string | number>): unknown {
  if (typeof value === 'string') return value.includes('{{') ? expandString(value, expansion, path) : value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const expanded = walk(value[index], expansion, path);
      path.pop();
      if (expanded !== value[index]) (out ??= value.slice())[index] = expanded;
    }
    return out ?? value;
  }
  if (isPlainObject(value)) {
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      path.push(key);
      const expanded = walk(value[key], expansion, path);
      path.pop();
      if (expanded !== value[key]) (out ??= { ...value })[key] = expanded;
    }
    return out ?? value;
  }
  return value;
}

function expandString(text: string, expansion: Expansion, path: ConfigPath): string {
  const { scope, where, secrets } = expansion;
  const at = (): ConfigPath => [...(where.path ?? []), ...path];
  const located = (error: MultiAuthError): MultiAuthError =>
    new MultiAuthError(error.code, error.message, { path: at(), context: { user: where.user, procedure: where.procedure, step: where.step }, hint: error.hint });
  const { blocks, unclosed } = scanTemplate(text);
  if (unclosed !== undefined) throw invalidTemplate(new TemplateSyntaxError(unclosedMessage(unclosed)), where, at());
  if (blocks.length === 0) return text;
  const evaluation: EvaluationScope = {
    lookup: (name: string) => (Object.hasOwn(scope, name) ? scope[name] : undefined),
    unknown: (name: string) => unknownVariable(name, scope, where, at()),
    ...(secrets && { derived: (value: string) => void secrets.add(value) }),
    ...(where.webauthn && { webauthn: where.webauthn }),
    ...(where.requestOrigin && { requestOrigin: where.requestOrigin }),
  };
  let out = '';
  let last = 0;
  for (const block of blocks) {
    let value: string;
    try {
      value = evaluateTemplate(parsedTemplate(block.source), evaluation);
    } catch (error) {
      if (error instanceof TemplateSyntaxError) throw invalidTemplate(error, where, at());
      if (error instanceof MultiAuthError && (error.code === 'TEMPLATE_FUNCTION_FAILED' || error.code === 'AUTH_PASSKEY')) throw located(error);
      throw error;
    }
    expansion.chars += block.start - last + value.length;
    if (expansion.chars > TEMPLATE_LIMITS.resultChars) throw located(tooMuchText());
    out += text.slice(last, block.start) + value;
    last = block.end;
  }
  return out + text.slice(last);
}

function tooMuchText(): MultiAuthError {
  const mib = (TEMPLATE_LIMITS.resultChars / 1024 / 1024).toFixed(1);
  return new MultiAuthError('TEMPLATE_FUNCTION_FAILED', `the templates of this step expand to more than the ${mib} MiB of text a step may send`, {
    hint: 'A variable holds far more text than expected (a server\'s answer?): check what the templates read, and how often they repeat it.',
  });
}

/** Normally found by `validate` first; a template reached only at run time still fails clearly. */
function invalidTemplate(error: TemplateSyntaxError, where: TemplateWhere, path: ConfigPath): MultiAuthError {
  return new MultiAuthError('TEMPLATE_INVALID', `invalid template: ${error.message}`, {
    path,
    context: { user: where.user, procedure: where.procedure, step: where.step },
    hint: 'Fix the {{ }} expression (see docs/format.md "Templating"); `multiauth validate` finds these before a run.',
  });
}

function unknownVariable(name: string, scope: TemplateScope, where: TemplateWhere, path: ConfigPath): MultiAuthError {
  const defined = Object.keys(scope);
  const listed = defined.length ? defined.map((n) => `{{${n}}}`).join(', ') : '(none)';
  return new MultiAuthError('TEMPLATE_UNKNOWN_VARIABLE', `unknown variable {{${name}}}`, {
    path,
    context: { user: where.user, procedure: where.procedure, step: where.step },
    details: [`variables defined at this point: ${listed}`],
    hint:
      `Declare "${name}" in the user's variables, extract it in an earlier operation ` +
      `(extractions: [{ name: ${name}, ... }]), or fix the spelling.`,
  });
}

/**
 * Waits, when `value` holds a `totp()` whose code is in the last seconds of its period, for the
 * next period (a code that expires on its way is refused): called just before `value` is expanded.
 * Returns nothing to wait for when `value` holds no `totp(`: most requests, which then spare the
 * promise (await it only when there is one).
 *
 * @example
 * const fresh = awaitFreshTotp(op.request, scope);
 * if (fresh) await fresh;
 * const request = expandTemplate(op.request, scope, where);
 */
export function awaitFreshTotp(value: unknown, scope: TemplateScope): Promise<void> | undefined {
  if (!mentionsTotp(value)) return undefined;
  const wait = totpWaitMs(value, {
    lookup: (name) => (Object.hasOwn(scope, name) ? scope[name] : undefined),
    unknown: (name) => new Error(`unknown variable ${name}`),
  });
  return wait > 0 ? sleep(wait) : undefined;
}
