import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { MAIL_LIMITS } from './limits.js';
import type { MailMessage } from './reader.js';

/** What the source knows of a mail besides its bytes: its id, when it arrived, its envelope. */
export interface Arrival {
  id: string;
  arrivedAt: number;
  /** Envelope recipients (RCPT TO), as the source has them; lower-cased and bounded here. */
  recipients: string[];
}

/**
 * A raw mail (RFC 5322 bytes) as a {@link MailMessage}: the one place MIME is read, by mailparser.
 * Bounded (item 8 of issue 37): a mail past {@link MAIL_LIMITS}' MIME depth or part count keeps its
 * headers only; HTML is turned into text only up to `htmlToTextChars`; attachments are dropped; text
 * and headers are cut. Never throws on data: a mail mailparser cannot read is kept with its headers.
 *
 * @example
 * const message = await parseMail(raw, { id: '7', arrivedAt: Date.now(), recipients: ['Alice@Example.test'] });
 * message.recipients; // ['alice@example.test']
 */
export async function parseMail(raw: Buffer, arrival: Arrival): Promise<MailMessage> {
  let headersOnly = tooDeep(raw);
  let parsed = headersOnly ? undefined : await readMime(raw);
  if (!parsed) {
    // Past a bound mailparser enforces (parts, header size) or unreadable: its headers alone.
    headersOnly = true;
    parsed = await readMime(headerBlock(raw));
  }
  const message: MailMessage = {
    id: arrival.id,
    arrivedAt: arrival.arrivedAt,
    recipients: normalRecipients(arrival.recipients),
    from: parsed ? firstAddress(parsed.from) : '',
    subject: cut(parsed?.subject ?? '', MAIL_LIMITS.headerChars),
    headers: parsed ? headerPairs(parsed) : [],
  };
  if (parsed && !headersOnly) {
    if (typeof parsed.text === 'string' && parsed.text !== '') message.text = cut(parsed.text, MAIL_LIMITS.partChars);
    if (typeof parsed.html === 'string' && parsed.html !== '') message.html = cut(parsed.html, MAIL_LIMITS.partChars);
  }
  return message;
}

/** mailparser's reading of `source`, bounded; undefined when it refuses it. */
async function readMime(source: Buffer): Promise<ParsedMail | undefined> {
  try {
    return await simpleParser(source, {
      // Attachments are never read by a step: no hashing, no inlining of images, no text-to-HTML.
      checksumAlgo: false,
      keepCidLinks: true,
      skipImageLinks: true,
      skipTextLinks: true,
      skipTextToHtml: true,
      maxHtmlLengthToParse: MAIL_LIMITS.htmlToTextChars,
      maxChildNodes: MAIL_LIMITS.mimeParts,
    });
  } catch {
    return undefined;
  }
}

/**
 * Envelope recipients as the step matches them: lower-cased, trimmed, without duplicates, bounded.
 *
 * @example
 * normalRecipients(['Alice@Example.test', 'alice@example.test']); // ['alice@example.test']
 */
export function normalRecipients(recipients: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const address of recipients.slice(0, MAIL_LIMITS.recipients)) {
    const normal = address.trim().toLowerCase();
    if (normal !== '' && normal.length <= 320) seen.add(normal);
  }
  return [...seen];
}

/**
 * Whether a mail nests its parts deeper than the bounds allow (mailparser bounds the part count, not
 * the depth): counted on the raw text, every multipart `Content-Type:` line a level, so the bound holds
 * before mailparser builds a tree of it. A count over-estimates depth, never under.
 */
function tooDeep(raw: Buffer): boolean {
  const text = raw.toString('latin1');
  let multiparts = 0;
  const multipart = /^content-type:[ \t]*multipart\//gim;
  while (multipart.exec(text)) {
    multiparts += 1;
    if (multiparts > MAIL_LIMITS.mimeDepth) return true;
  }
  return false;
}

/** The header block of a raw mail (up to the first empty line), for a mail whose body is not read. */
function headerBlock(raw: Buffer): Buffer {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const ends = [crlf, lf].filter((at) => at >= 0);
  return ends.length ? raw.subarray(0, Math.min(...ends)) : raw;
}

function firstAddress(from: AddressObject | AddressObject[] | undefined): string {
  const list = Array.isArray(from) ? from : from ? [from] : [];
  for (const object of list) {
    for (const entry of object.value) {
      if (entry.address) return cut(entry.address.toLowerCase(), 320);
    }
  }
  return '';
}

/** Every header as sent (names as written), values decoded (encoded words), in order, bounded. */
function headerPairs(parsed: ParsedMail): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const { line } of parsed.headerLines.slice(0, MAIL_LIMITS.headers)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    pairs.push([name, cut(decodedValue(parsed, name, line.slice(colon + 1)), MAIL_LIMITS.headerChars)]);
  }
  return pairs;
}

/**
 * A header's value decoded: mailparser's decoded value where it is text (Subject and other unstructured
 * headers), else the line unfolded; addresses and dates keep the text as sent.
 */
function decodedValue(parsed: ParsedMail, name: string, rawValue: string): string {
  const decoded = parsed.headers.get(name.toLowerCase());
  if (typeof decoded === 'string') return decoded;
  return rawValue.replace(/\r?\n[ \t]+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}
