/**
 * Bounds on mail, which is input from the application under test (issue 37 item 8). One table, so
 * the sink, the readers and the docs agree.
 */
export const MAIL_LIMITS = {
  /** A mail larger than this is refused at SMTP (552), before it is parsed. */
  mailBytes: 2 * 1024 * 1024,
  /** Mails the sink holds; the oldest go first. A run's sign-ins send a few per user. */
  mails: 500,
  /** Bytes of raw mail the sink holds in all; the oldest go first. */
  storeBytes: 64 * 1024 * 1024,
  /** Nested multiparts; a deeper mail is kept with its headers only (no text, no HTML). */
  mimeDepth: 8,
  /** MIME parts in one mail; a mail with more is kept with its headers only. */
  mimeParts: 100,
  /** Characters of HTML turned into text (when a mail has no text part); the rest is not converted. */
  htmlToTextChars: 256 * 1024,
  /** Characters of a text or HTML part kept. */
  partChars: 1024 * 1024,
  /** Headers kept per mail, and characters per header value. */
  headers: 200,
  headerChars: 8 * 1024,
  /** Envelope recipients per mail (smtp-server's own limit is higher). */
  recipients: 100,
  /** Bytes of a Mailpit or maildev answer read. */
  answerBytes: 16 * 1024 * 1024,
  /** Messages of a Mailpit or maildev listing looked at per read. */
  listed: 1000,
  /** A wait that found a match waits this long for a newer one before it answers ("several arrived together"). */
  quietMs: 25,
  /** ... and never longer than this in all after the first match. */
  quietMaxMs: 500,
  /** Other mails a timeout reports (subjects and recipients, never a body). */
  others: 5,
} as const;
