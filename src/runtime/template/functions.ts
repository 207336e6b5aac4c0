import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MultiAuthError } from '../../core/errors.js';
import { dependencyOnFirstUse } from '../../core/package-files.js';
import { callsFunction, parsedTemplate, scanTemplate, TEMPLATE_LIMITS, type SIGN_IN_VALUE_NAMES, type TemplateExpr } from '../../core/template-expr.js';
import { isIdentifyingName } from '../../core/identifying-names.js';
import { webauthnAssertion, type WebAuthnSigner } from './webauthn.js';

/** What an expression is evaluated against; `unknown` builds the error for a missing variable. */
export interface EvaluationScope {
  lookup(name: string): string | undefined;
  unknown(name: string): Error;
  /**
   * Told every value derived from a secret: the result of a function or of `a + b` with a secret
   * input (a variable whose name does not merely identify, such as `password`, or a quoted string
   * given to a function). The run registers them with its Redactor, so that `basic(username,
   * password)`, `base64(…)` and a TOTP code are masked when a server echoes them.
   */
  derived?(value: string): void;
  /** The user's passkey and counter, for `webauthn_assertion()`; absent: the user has none. */
  webauthn?: WebAuthnSigner;
  /** The origin of the request being built (`webauthn_assertion()`'s default origin), known on demand. */
  requestOrigin?: () => string | undefined;
}

/** A TOTP code is not used in the last seconds of its period: it could expire on the way. */
export const TOTP_FRESH_SECONDS = 3;

const ALGORITHMS = new Set(['SHA1', 'SHA256', 'SHA512']);

/** Functions whose result does not come from their inputs (they take none). */
const UNDERIVED = new Set(['uuid', 'now']);

/**
 * Evaluates a parsed expression to text. Numbers are their decimal text; `+` joins texts. Every
 * function's result and every `+` is at most `TEMPLATE_LIMITS.resultChars` long, checked before it
 * is built; each that derives from a secret is told to `scope.derived`.
 *
 * @throws MultiAuthError `TEMPLATE_FUNCTION_FAILED` when a function refuses its arguments (a TOTP
 *   secret that is not base32) or its result would pass the limit; the message names the
 *   function, never the values.
 * @example
 * evaluateTemplate(parsedTemplate('basic(username, password)'), scope); // 'Basic YWxpY2U6cHc='
 */
export function evaluateTemplate(expr: TemplateExpr, scope: EvaluationScope): string {
  return evaluate(expr, scope).text;
}

/** A value and whether it derives from a secret. */
interface Evaluated {
  text: string;
  secret: boolean;
}

function evaluate(expr: TemplateExpr, scope: EvaluationScope): Evaluated {
  switch (expr.kind) {
    case 'var': {
      const value = scope.lookup(expr.name);
      if (value === undefined) throw scope.unknown(expr.name);
      // The value itself is registered where it comes from (the plan, an extraction).
      return { text: value, secret: !isIdentifyingName(expr.name) };
    }
    case 'string':
      return { text: expr.value, secret: false };
    case 'number':
      return { text: String(expr.value), secret: false };
    case 'concat': {
      const parts = expr.parts.map((part) => evaluate(part, scope));
      checkSize('a + b', parts.reduce((sum, part) => sum + part.text.length, 0));
      return derived({ text: parts.map((part) => part.text).join(''), secret: parts.some((part) => part.secret) }, scope);
    }
    case 'call': {
      const args = expr.args.map((arg) => evaluate(arg, scope));
      const text =
        expr.name === 'webauthn_assertion'
          ? webauthnAssertion(args.map((arg) => arg.text), scope.webauthn, args.length < 2 ? scope.requestOrigin?.() : undefined)
          : callFunction(expr.name, args.map((arg) => arg.text));
      const secret = !UNDERIVED.has(expr.name) && args.some((arg, index) => arg.secret || expr.args[index]!.kind === 'string');
      // A server may echo the credentials of `Basic <credentials>` alone.
      if (secret && expr.name === 'basic') scope.derived?.(text.slice('Basic '.length));
      return derived({ text, secret }, scope);
    }
  }
}

function derived(value: Evaluated, scope: EvaluationScope): Evaluated {
  if (value.secret) scope.derived?.(value.text);
  return value;
}

function callFunction(name: string, args: string[]): string {
  switch (name) {
    case 'base64':
      checkSize('base64()', 4 * Math.ceil(Buffer.byteLength(args[0]!, 'utf8') / 3));
      return Buffer.from(args[0]!, 'utf8').toString('base64');
    case 'base64url':
      checkSize('base64url()', Math.ceil((4 * Buffer.byteLength(args[0]!, 'utf8')) / 3));
      return Buffer.from(args[0]!, 'utf8').toString('base64url');
    case 'urlencode': {
      // At least as long as its input, at most nine times (a 3-byte character becomes %XX%XX%XX).
      checkSize('urlencode()', args[0]!.length);
      const encoded = encodeURIComponent(args[0]!);
      checkSize('urlencode()', encoded.length);
      return encoded;
    }
    case 'basic':
      checkSize('basic()', 6 + 4 * Math.ceil((Buffer.byteLength(args[0]!, 'utf8') + 1 + Buffer.byteLength(args[1]!, 'utf8')) / 3));
      return `Basic ${Buffer.from(`${args[0]}:${args[1]}`, 'utf8').toString('base64')}`;
    case 'totp':
      return totpCode(args);
    case 'uuid':
      return randomUUID();
    case 'now':
      return String(Math.floor(Date.now() / 1000));
    default:
      // The parser refuses unknown names; this is for a table that grew without an implementation.
      throw functionFailed(name, 'it has no implementation');
  }
}

/** Refuses a result of `length` characters past the limit, before it is built. */
function checkSize(what: string, length: number): void {
  const limit = TEMPLATE_LIMITS.resultChars;
  if (length <= limit) return;
  const mib = (chars: number): string => `${(chars / 1024 / 1024).toFixed(1)} MiB`;
  throw new MultiAuthError('TEMPLATE_FUNCTION_FAILED', `${what}: its result would be ${mib(length)} of text, more than the ${mib(limit)} a template value may be`, {
    hint: `A value given to ${what} is much larger than expected (a server's answer?): check what the template reads, and nest fewer functions.`,
  });
}

interface TotpSettings {
  digits: number;
  period: number;
  algorithm: string;
}

function totpSettings(args: readonly string[]): TotpSettings {
  const [, digits = '6', period = '30', algorithm = 'SHA1'] = args;
  const settings = { digits: Number(digits), period: Number(period), algorithm: algorithm.toUpperCase().replace('-', '') };
  if (!Number.isInteger(settings.digits) || settings.digits < 6 || settings.digits > 10) throw functionFailed('totp', 'digits must be a whole number from 6 to 10');
  if (!Number.isInteger(settings.period) || settings.period < 5 || settings.period > 3600) throw functionFailed('totp', 'period must be a whole number of seconds from 5 to 3600');
  if (!ALGORITHMS.has(settings.algorithm)) throw functionFailed('totp', 'algorithm must be SHA1, SHA256 or SHA512');
  return settings;
}

/**
 * `totp(secret[, digits, period, algorithm])` at `timestamp` (RFC 6238; the secret in base32).
 *
 * @example
 * totpCode(['GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', '8'], 59_000); // '94287082' (RFC 6238 appendix B)
 */
export function totpCode(args: readonly string[], timestamp = Date.now()): string {
  const settings = totpSettings(args);
  const { Secret, TOTP } = otpauth();
  let secret: InstanceType<typeof Secret>;
  try {
    // Authenticator apps show secrets in groups and either case; base32 is upper case, unpadded.
    secret = Secret.fromBase32(args[0]!.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase());
  } catch {
    throw functionFailed('totp', 'the secret is not base32 (the text under the QR code: letters A-Z and digits 2-7)');
  }
  if (secret.bytes.length === 0) throw functionFailed('totp', 'the secret is empty');
  return TOTP.generate({ secret, ...settings, timestamp });
}

function functionFailed(name: string, why: string): MultiAuthError {
  return new MultiAuthError('TEMPLATE_FUNCTION_FAILED', `${name}(): ${why}`, {
    hint: `See docs/format.md "Templating" for ${name}().`,
  });
}

/**
 * How long to wait before expanding `value` so that no `totp()` code in it is in the last
 * {@link TOTP_FRESH_SECONDS} seconds of its period (0 when none is, or when `value` holds no
 * `totp(`). Arguments that cannot be read here are left for the expansion to report.
 *
 * @example
 * await sleep(totpWaitMs(op.request, scope));
 */
export function totpWaitMs(value: unknown, scope: EvaluationScope, now = Date.now()): number {
  let wait = 0;
  const texts = stringsWith(value, 'totp(');
  for (const text of texts) {
    for (const block of scanTemplate(text).blocks) {
      let expr: TemplateExpr;
      try {
        expr = parsedTemplate(block.source);
      } catch {
        continue;
      }
      for (const call of totpCalls(expr)) {
        let period: number;
        try {
          period = totpSettings(call.args.map((arg) => evaluateTemplate(arg, scope))).period;
        } catch {
          continue;
        }
        const remaining = period * 1000 - (now % (period * 1000));
        if (remaining < TOTP_FRESH_SECONDS * 1000) wait = Math.max(wait, remaining + 50);
      }
    }
  }
  return wait;
}

function totpCalls(expr: TemplateExpr): Array<Extract<TemplateExpr, { kind: 'call' }>> {
  if (!callsFunction(expr, 'totp')) return [];
  if (expr.kind === 'call') return expr.name === 'totp' ? [expr] : expr.args.flatMap(totpCalls);
  if (expr.kind === 'concat') return expr.parts.flatMap(totpCalls);
  return [];
}

const totpStrings = new WeakMap<object, string[]>();

/** The strings inside `value` that call `totp(`, known once per object (a plan's requests do not change). */
/**
 * Whether a string inside `value` holds `totp(`; known once per object, as {@link totpWaitMs} knows it.
 *
 * @example
 * mentionsTotp({ body: { code: '{{ totp(secret) }}' } }); // true
 */
export function mentionsTotp(value: unknown): boolean {
  return stringsWith(value, 'totp(').length > 0;
}

function stringsWith(value: unknown, needle: 'totp('): string[] {
  if (value === null || typeof value !== 'object') return walkStrings(value, needle);
  let found = totpStrings.get(value);
  if (!found) totpStrings.set(value, (found = walkStrings(value, needle)));
  return found;
}

/** The strings inside `value` that contain `needle` (a request, a command: small, finite trees). */
function walkStrings(value: unknown, needle: string): string[] {
  const out: string[] = [];
  const stack = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes(needle)) out.push(item);
    } else if (Array.isArray(item)) for (const child of item) stack.push(child);
    else if (item !== null && typeof item === 'object') for (const child of Object.values(item)) stack.push(child);
  }
  return out;
}

/**
 * Fresh per-sign-in values: a PKCE verifier (RFC 7636: 43 characters of base64url) with its S256
 * challenge, and random `state` and `nonce`.
 *
 * @example
 * Object.assign(scope, signInValues()); // { pkce_verifier, pkce_challenge, state, nonce }
 */
export function signInValues(): Record<(typeof SIGN_IN_VALUE_NAMES)[number], string> {
  const verifier = randomBytes(32).toString('base64url');
  return {
    pkce_verifier: verifier,
    pkce_challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
  };
}

/** otpauth, loaded on the first `totp()`: most runs compute none. */
const otpauth = dependencyOnFirstUse<typeof import('otpauth')>('otpauth');
