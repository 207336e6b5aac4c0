/**
 * The one contract between where mail comes from (the package's own SMTP sink, Mailpit, maildev)
 * and the `tech: email` step that reads it. Every source parses MIME once, in one place of
 * `runtime/mail/`, and hands the step a {@link MailMessage}: the step never sees raw mail.
 */

/** A mail as the step reads it: decoded, bounded, and parsed once. Its text is a secret. */
export interface MailMessage {
  /** The source's own id of the mail (the sink's sequence number, Mailpit's or maildev's id). */
  id: string;
  /** Unix ms when the source received the mail: the order of arrival, never the `Date` header. */
  arrivedAt: number;
  /** Envelope recipients (RCPT TO), lower-cased; what a step's `to` is matched against, exactly. */
  recipients: string[];
  /** The From header's address, lower-cased ('' when there is none). */
  from: string;
  /** The Subject, encoded words decoded ('' when there is none). */
  subject: string;
  /** Every header, names as sent, values decoded; in order, repeated names kept. */
  headers: Array<[name: string, value: string]>;
  /**
   * The text part, decoded; when the mail has none, its HTML part as text (mailparser's conversion,
   * bounded); absent when the mail has neither (or is past a bound: then headers only).
   */
  text?: string;
  /** The HTML part, decoded; absent when the mail has none. */
  html?: string;
}

/**
 * A point in a mailbox: only mail that arrives after it counts. Taken when a procedure starts,
 * before the request that makes the application send the mail (real applications deliver before
 * they answer). Opaque to the step.
 */
export interface MailCursor {
  readonly source: string;
  readonly position: string;
}

/** What a step waits for. */
export interface MailQuery {
  /** The recipient, matched exactly (any case) against the envelope recipients. */
  to: string;
  /** Tested against the decoded Subject (RE2, unanchored); absent = any. */
  subject?: (subject: string) => boolean;
  /** Tested against the From header's address (RE2, unanchored); absent = any. */
  from?: (address: string) => boolean;
  /** Only mail that arrived after this point counts. */
  after: MailCursor;
  /** How long to wait, in ms, from the call. */
  timeoutMs: number;
  /** Ends the wait early (the sign-in was abandoned). */
  signal?: AbortSignal;
}

/** A mail that arrived but did not match, for the timeout error: never a body. */
export interface MailSummary {
  recipients: string[];
  subject: string;
}

/** What a wait found: the mail, or nothing in time with what did arrive meanwhile (at most five). */
export type MailWaitResult =
  | { kind: 'found'; message: MailMessage }
  | {
      kind: 'timeout';
      waitedMs: number;
      /** The latest (at most five) of the mails that arrived meanwhile and did not match, in arrival order. */
      others: MailSummary[];
      /** How many mails arrived meanwhile and did not match (`others` holds the last five of them). */
      otherCount?: number;
    };

/**
 * A mailbox the `tech: email` step reads. Implementations: the package's SMTP sink (read over its
 * loopback API, pushed, not polled), Mailpit and maildev (their HTTP APIs).
 */
export interface MailReader {
  /** Names the mailbox in errors ("the mail sink on 127.0.0.1:2525", "Mailpit at http://..."). */
  readonly description: string;
  /** The current end of the mailbox: mail after it is new. */
  cursor(): Promise<MailCursor>;
  /**
   * Waits for the first mail after `query.after` that matches; when several arrived together, the
   * newest of them after a short quiet time. Resolves `timeout` (never throws) when none came in
   * time; throws a `MultiAuthError` when the mailbox cannot be read at all.
   */
  waitFor(query: MailQuery): Promise<MailWaitResult>;
  /** Releases what the reader holds (connections, an in-process sink it started). */
  close(): Promise<void>;
}
