import type { MailMessage, MailSummary } from './reader.js';

/**
 * A {@link MailMessage} read back from JSON (the sink's API), or undefined when the value is not
 * one: the port may be another server's, so nothing is taken on trust.
 *
 * @example
 * asMailMessage(JSON.parse(data))?.subject;
 */
export function asMailMessage(value: unknown): MailMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
  const headers = (x: unknown): x is Array<[string, string]> => Array.isArray(x) && x.every((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string');
  if (typeof v.id !== 'string' || typeof v.arrivedAt !== 'number' || !strings(v.recipients) || typeof v.from !== 'string' || typeof v.subject !== 'string' || !headers(v.headers)) return undefined;
  if ((v.text !== undefined && typeof v.text !== 'string') || (v.html !== undefined && typeof v.html !== 'string')) return undefined;
  return {
    id: v.id, arrivedAt: v.arrivedAt, recipients: v.recipients, from: v.from, subject: v.subject, headers: v.headers,
    ...(v.text === undefined ? {} : { text: v.text as string }),
    ...(v.html === undefined ? {} : { html: v.html as string }),
  };
}

/**
 * A {@link MailSummary} read back from JSON, or undefined.
 *
 * @example
 * asSummary({ recipients: ['bob@example.test'], subject: 'Hello' });
 */
export function asSummary(value: unknown): MailSummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.recipients) || !v.recipients.every((s) => typeof s === 'string') || typeof v.subject !== 'string') return undefined;
  return { recipients: v.recipients as string[], subject: v.subject };
}
