import { SecretMatcher } from './secret-matcher.js';

/** Text shown in place of a secret. */
export const MASK = '********';

/** Secrets shorter than this are not masked: masking `a` or `1` would shred every message. */
const MIN_SECRET_LENGTH = 3;

/** Added values kept unprocessed at most. */
const MAX_PENDING = 10_000;

/** Deferred collections ({@link Redactor.addLazily}) kept uncollected at most. */
const MAX_DEFERRED = 1_000;

/**
 * Knows every secret value of a run (passwords, client secrets, tokens, cookie values) and masks
 * them wherever text is about to be printed: errors, logs, CLI output, test attachments.
 *
 * Also masks the URL-encoded and Base64 forms of each secret, since that is how they appear in
 * request bodies, query strings and `Authorization: Basic` headers.
 *
 * @example
 * const redactor = new Redactor();
 * redactor.add('hunter2');
 * redactor.redact('password=hunter2'); // 'password=********'
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  /** Values whose encoded forms are computed: a sign-in re-registers the same ones often. */
  private readonly registered = new Set<string>();
  /**
   * Values added since the last print, repeats included: sorting them out (hashing long tokens)
   * and computing their encoded forms waits for the first print, which most sign-ins never reach.
   */
  private pending: string[] = [];
  /** Collections of secrets that wait for the first print ({@link Redactor.addLazily}). */
  private deferred: Array<() => Iterable<string | undefined | null>> = [];
  /** Built from {@link secrets} on the first print; rebuilt only when one is taken out ({@link Redactor.keep}). */
  private matcher: SecretMatcher | undefined;
  /** Secret forms learnt since {@link matcher} was built, added to it on the next print. */
  private unmatched: string[] = [];
  /** Identifiers never masked, even when a secret equals one ({@link Redactor.keep}). */
  private readonly identifiers = new Set<string>();

  /** Registers secret values; empty and very short values are ignored. */
  add(...values: Array<string | undefined | null>): this {
    for (const value of values) {
      if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.pending.push(value);
    }
    // Bounds what a process that signs in often and never prints keeps.
    if (this.pending.length > MAX_PENDING) this.forms();
    return this;
  }

  /**
   * Registers the values `collect` returns, collected when something is first printed (or when
   * many collections wait): for secrets that take work to find (every value of a session) and
   * that most sign-ins never print. `collect` must see every secret whenever it runs: give it
   * objects that only gain values, never lose them.
   *
   * @example
   * redactor.addLazily(() => sessionSecrets(session));
   */
  addLazily(collect: () => Iterable<string | undefined | null>): this {
    this.deferred.push(collect);
    if (this.deferred.length > MAX_DEFERRED) this.forms();
    return this;
  }

  /**
   * Registers identifiers (user, variable, procedure names) that are never masked, even when a
   * secret equals one: `login --json` must say whose session it prints, and an error must name the
   * variable it misses. A secret that equals an identifier is then shown where it appears alone;
   * one that merely contains an identifier is masked whole as before.
   *
   * @example
   * redactor.add('alice').keep('alice').redact('user "alice"'); // 'user "alice"'
   */
  keep(...names: string[]): this {
    for (const name of names) {
      this.identifiers.add(name);
      if (this.secrets.delete(name)) this.forgetMatcher();
    }
    return this;
  }

  /** Registers every secret and identifier another redactor knows. */
  addAll(other: Redactor): this {
    for (const name of other.identifiers) this.identifiers.add(name);
    for (const secret of other.forms()) if (!this.identifiers.has(secret)) this.secrets.add(secret);
    for (const name of this.identifiers) this.secrets.delete(name);
    this.forgetMatcher();
    return this;
  }

  /** How many distinct secret forms are known. */
  get size(): number {
    return this.forms().size;
  }

  /**
   * Returns `text` with every known secret replaced by {@link MASK}; overlapping secrets are one
   * mask. Never throws and never returns a secret: a text that cannot be masked (one made to cost
   * too much work, or any failure inside) is withheld whole, its length said instead.
   */
  redact(text: string): string {
    try {
      if (text.length === 0 || this.forms().size === 0) return text;
      if (!this.matcher) {
        this.matcher = new SecretMatcher(this.secrets);
        this.unmatched = [];
      } else if (this.unmatched.length) {
        this.matcher.add(this.unmatched);
        this.unmatched = [];
      }
      const spans = this.matcher.spans(text);
      if (spans.length === 0) return text;
      const parts: string[] = [];
      let at = 0;
      for (const [start, end] of spans) {
        parts.push(text.slice(at, start), MASK);
        at = end;
      }
      parts.push(text.slice(at));
      return parts.join('');
    } catch {
      return withheld(text.length);
    }
  }

  /**
   * `value` with every string inside it redacted, its numbers, booleans and structure kept: for JSON
   * output. Masking the serialized text instead can cut through a number (an extracted `3600` inside
   * a timestamp) and leave text that is not JSON, and misses a secret whose JSON form escapes a
   * character (a quote, a backslash).
   *
   * @example
   * redactor.add('hunter2').redactJson({ password: 'hunter2', expiresAt: 1795683600123 }); // { password: '********', expiresAt: 1795683600123 }
   */
  redactJson<T>(value: T): T {
    return maskStrings(value, (text) => this.redact(text)) as T;
  }

  private forgetMatcher(): void {
    this.matcher = undefined;
    this.unmatched = [];
  }

  /** Every secret form, the pending values' forms computed first. */
  private forms(): Set<string> {
    if (this.deferred.length) {
      const deferred = this.deferred;
      this.deferred = [];
      for (const collect of deferred) {
        for (const value of collect()) {
          if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.pending.push(value);
        }
      }
    }
    if (this.pending.length) {
      for (const value of this.pending) {
        if (this.registered.has(value)) continue;
        this.registered.add(value);
        for (const form of encodedForms(value)) {
          if (form.length >= MIN_SECRET_LENGTH && !this.secrets.has(form) && !this.identifiers.has(form)) {
            this.secrets.add(form);
            if (this.matcher) this.unmatched.push(form);
          }
        }
      }
      this.pending = [];
    }
    return this.secrets;
  }
}

function encodedForms(value: string): string[] {
  const forms = new Set([
    value,
    new URLSearchParams({ v: value }).toString().slice(2),
    Buffer.from(value).toString('base64').replace(/=+$/, ''),
    JSON.stringify(value).slice(1, -1),
  ]);
  // URI encoding refuses a lone surrogate (a server's malformed value): that form cannot appear then.
  try {
    forms.add(encodeURIComponent(value));
  } catch {}
  return [...forms];
}

/** What is printed in place of a text that could not be masked: its length, nothing of its content. */
function withheld(length: number): string {
  return `[${length} characters withheld: playwright-multiauth could not mask the secrets in them]`;
}

/**
 * Every string inside a JSON value passed through `mask`; the structure is kept, keys unchanged.
 *
 * @example
 * maskStrings({ token: 'abc', n: 1 }, (t) => redactor.redact(t)); // { token: '********', n: 1 }
 */
export function maskStrings(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, mask));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskStrings(item, mask)]));
  }
  return value;
}
