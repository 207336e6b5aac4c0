import { MAIL_LIMITS } from './limits.js';
import type { MailMessage, MailQuery, MailSummary, MailWaitResult } from './reader.js';

/** Timing of a {@link MailWait}; the defaults are {@link MAIL_LIMITS}'. */
export interface WaitTiming {
  quietMs?: number;
  quietMaxMs?: number;
}

/**
 * One `waitFor` in progress, the same for every source: a source offers it each mail that arrived
 * after the cursor, in arrival order, as it learns of them (pushed by the sink, listed by Mailpit or
 * maildev); the wait decides. The first match is held for a short quiet time: a newer match in that
 * time replaces it ("several arrived together: the newest"), up to `quietMaxMs` after the first. Mail
 * that does not match is remembered as a summary (recipients and subject, never a body) for the
 * timeout's answer. `stop` is aborted once the wait is decided, so the source stops reading.
 *
 * @example
 * const wait = new MailWait(query);
 * source.on('mail', (message) => wait.offer(message));
 * const result = await wait.done;
 */
export class MailWait {
  /** The answer: found, or timeout with what else arrived. Rejects on {@link fail} or the query's signal. */
  readonly done: Promise<MailWaitResult>;
  private readonly controller = new AbortController();
  private readonly startedAt = Date.now();
  private readonly others: MailSummary[] = [];
  private otherCount = 0;
  private candidate: MailMessage | undefined;
  private firstMatchAt = 0;
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly timeoutTimer: NodeJS.Timeout;
  private settle!: (result: MailWaitResult) => void;
  private reject!: (error: unknown) => void;
  private settled = false;
  private readonly to: string;
  private readonly quietMs: number;
  private readonly quietMaxMs: number;
  private readonly onAbort: () => void;

  constructor(private readonly query: MailQuery, timing: WaitTiming = {}) {
    this.to = query.to.trim().toLowerCase();
    this.quietMs = timing.quietMs ?? MAIL_LIMITS.quietMs;
    this.quietMaxMs = timing.quietMaxMs ?? MAIL_LIMITS.quietMaxMs;
    this.done = new Promise<MailWaitResult>((resolve, reject) => {
      this.settle = resolve;
      this.reject = reject;
    });
    this.timeoutTimer = setTimeout(() => this.expire(), Math.max(0, query.timeoutMs));
    this.onAbort = () => this.fail(query.signal?.reason ?? new Error('the wait for mail was abandoned'));
    if (query.signal?.aborted) this.onAbort();
    else query.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Aborted once the wait is decided: the source stops reading then. */
  get stop(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the wait is decided. */
  get finished(): boolean {
    return this.settled;
  }

  /** Whether a mail is for this wait's recipient (exactly, any case): a source fetches only those in full. */
  isFor(recipients: readonly string[]): boolean {
    return recipients.some((address) => address.toLowerCase() === this.to);
  }

  /** A mail that arrived after the cursor, in arrival order. */
  offer(message: MailMessage): void {
    if (this.settled) return;
    if (!this.matches(message)) {
      this.noteOther({ recipients: message.recipients, subject: message.subject });
      return;
    }
    this.candidate = message;
    const now = Date.now();
    if (this.firstMatchAt === 0) this.firstMatchAt = now;
    clearTimeout(this.quietTimer);
    const left = this.firstMatchAt + this.quietMaxMs - now;
    this.quietTimer = setTimeout(() => this.found(), Math.max(0, Math.min(this.quietMs, left)));
  }

  /** A mail known not to be for this wait (another recipient): only its summary is kept. */
  offerOther(summary: MailSummary): void {
    if (!this.settled) this.noteOther(summary);
  }

  /** The source cannot be read: the wait fails with this error. */
  fail(error: unknown): void {
    if (this.settled) return;
    this.finish();
    this.reject(error);
  }

  private matches(message: MailMessage): boolean {
    if (!this.isFor(message.recipients)) return false;
    if (this.query.subject && !this.query.subject(message.subject)) return false;
    if (this.query.from && !this.query.from(message.from)) return false;
    return true;
  }

  private noteOther(summary: MailSummary): void {
    this.otherCount += 1;
    this.others.push({ recipients: summary.recipients.slice(0, 10), subject: summary.subject.slice(0, 200) });
    // The latest few: with many workers, the ones nearest the wait's end are the likeliest mistake.
    if (this.others.length > MAIL_LIMITS.others) this.others.shift();
  }

  private found(): void {
    if (this.settled || !this.candidate) return;
    const message = this.candidate;
    this.finish();
    this.settle({ kind: 'found', message });
  }

  private expire(): void {
    if (this.settled) return;
    // A match still in its quiet time when the time runs out is the answer all the same.
    if (this.candidate) return this.found();
    this.finish();
    this.settle({ kind: 'timeout', waitedMs: Date.now() - this.startedAt, others: [...this.others], otherCount: this.otherCount });
  }

  private finish(): void {
    this.settled = true;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.quietTimer);
    this.query.signal?.removeEventListener('abort', this.onAbort);
    this.controller.abort();
  }
}
