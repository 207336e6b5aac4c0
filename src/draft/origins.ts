import { encodeHtmlAttribute, markupValue } from '../core/html-entities.js';
import { compileUserRegex } from '../core/regex.js';
import { header, type Exchange } from './exchanges.js';
import { isPlainObject } from '../core/json-path.js';
import { HAR_LIMITS } from './har-limits.js';

/** Where a response first gave a value: what an extraction of the format reads it back from. */
export interface Origin {
  exchange: Exchange;
  location: 'body' | 'header' | 'cookie';
  /** JSON dot path, header name, cookie name; for a regex on a page, the field's name. */
  key: string;
  /** A bounded RE2 pattern whose group 1 is the value (HTML and text bodies). */
  regex?: string;
  /** The origin in words, for evidence: `JSON field data.auth.access_token`. */
  what: string;
}

/** Characters of pages searched for values at most, all searches together: the work stays bounded. */
const PAGE_SEARCH_CHARS = 512 * 1024 * 1024;

/** Characters of a page around a value that a regex may anchor on. */
const ANCHOR_CHARS = 24;

/**
 * Every value the responses of the recording gave, indexed once: JSON string leaves, header
 * values and cookies set, each with its first origin. Pages (HTML, text) are searched on demand
 * ({@link findOrigin}), since any part of them may be the value.
 */
export class OriginIndex {
  private readonly first = new Map<string, Origin>();
  private readonly pages = new Map<string, Origin | undefined>();
  private count = 0;
  /** Characters of pages searched so far, for {@link PAGE_SEARCH_CHARS}. */
  private scanned = 0;

  constructor(private readonly exchanges: readonly Exchange[]) {
    // Within one answer, a JSON field is the plainest origin to read back, a cookie the last.
    for (const exchange of exchanges) {
      const json = exchange.responseBody?.json;
      if (json !== undefined) this.leaves(json, '', exchange, 0);
      for (const h of exchange.responseHeaders) {
        const name = h.name.toLowerCase();
        if (name === 'set-cookie' || name === 'date' || name === 'etag' || name === 'content-length') continue;
        this.remember(h.value, { exchange, location: 'header', key: h.name, what: `header ${h.name}` });
      }
      for (const cookie of exchange.setCookies) this.remember(cookie.value, { exchange, location: 'cookie', key: cookie.name, what: `cookie ${cookie.name}` });
    }
  }

  /**
   * Where `value` first appeared in a response of an exchange before `before` (its index in the
   * recording): a JSON field, a header, a cookie, then a page (HTML hidden input or meta tag, else
   * a bounded regex around it). Undefined when no response before it held the value.
   *
   * @example
   * index.findOrigin(token, 7)?.what; // 'JSON field data.auth.access_token'
   */
  findOrigin(value: string, before: number): Origin | undefined {
    const known = this.first.get(value) ?? this.first.get(safeDecode(value));
    const page = this.pageOrigin(value);
    const candidates = [known, page].filter((o): o is Origin => o !== undefined && o.exchange.index < before);
    return candidates.sort((a, b) => a.exchange.index - b.exchange.index)[0];
  }

  /** The first page that holds `value` where a regex reads it back; searched once per value, within a budget. */
  private pageOrigin(value: string): Origin | undefined {
    if (this.pages.has(value)) return this.pages.get(value);
    let found: Origin | undefined;
    for (const exchange of this.exchanges) {
      const body = exchange.responseBody;
      if (!body || body.json !== undefined || this.scanned > PAGE_SEARCH_CHARS) continue;
      this.scanned += body.text.length;
      const at = body.text.indexOf(value);
      // A value with `&` or a quote is written with references in an attribute (`&amp;`).
      const encoded = encodeHtmlAttribute(value);
      if (at < 0 && (encoded === value || !body.text.includes(encoded))) continue;
      found = htmlFieldOrigin(exchange, body.text, encoded, value) ?? (at >= 0 ? aroundOrigin(exchange, body.text, value, at) : undefined);
      if (found) break;
    }
    if (this.pages.size < HAR_LIMITS.values) this.pages.set(value, found);
    return found;
  }

  private remember(value: string, origin: Origin): void {
    if (value.length < 4 || this.count >= HAR_LIMITS.values) return;
    this.count++;
    if (!this.first.has(value)) this.first.set(value, origin);
  }

  private leaves(value: unknown, path: string, exchange: Exchange, depth: number): void {
    if (depth > HAR_LIMITS.bodyDepth || this.count >= HAR_LIMITS.values) return;
    if (typeof value === 'string') {
      if (path) this.remember(value, { exchange, location: 'body', key: path, what: `JSON field ${path}` });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => this.leaves(item, path ? `${path}.${i}` : String(i), exchange, depth + 1));
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        // A key with a dot cannot be written as a dot path.
        if (key.includes('.') || key === '') continue;
        this.leaves(item, path ? `${path}.${key}` : key, exchange, depth + 1);
      }
    }
  }
}

/**
 * Where a form field posted by `consumer` came from when its page's body is not in the recording:
 * a page that posts itself on load (a SAML identity provider's answer carrying `SAMLResponse` and
 * `RelayState` to the service provider) is replaced at once, and Playwright records no body for
 * it. The origin is the last HTML answer before `consumer` that has no body, from the origin the
 * post says it came from (`Origin`), read back as a hidden input of that name. Undefined otherwise.
 *
 * @example
 * unrecordedFormOrigin(exchanges, 'SAMLResponse', acs)?.what; // 'form field "SAMLResponse" of its page (body not recorded, the page posted itself)'
 */
export function unrecordedFormOrigin(exchanges: readonly Exchange[], field: string, consumer: Exchange): Origin | undefined {
  const from = header(consumer.requestHeaders, 'origin');
  if (consumer.method !== 'POST' || !from || !consumer.requestBody?.form || !/^[\w.:[\]-]{1,200}$/.test(field)) return undefined;
  const before = exchanges.filter((e) => e.index < consumer.index && e.url.origin === from);
  for (const exchange of before.reverse()) {
    const type = header(exchange.responseHeaders, 'content-type') ?? '';
    if (!/^text\/html\b/i.test(type)) continue;
    if (exchange.status !== 200 || exchange.responseBody) return undefined;
    const regex = `"${escapeRegex(field)}"[^>]*?\\svalue="([^"]*)"`;
    return { exchange, location: 'body', key: field, regex, what: `form field "${field}" of its page (body not recorded, the page posted itself)` };
  }
  return undefined;
}

/**
 * The value as the `value` (or `content`) attribute of a tag that has a `name` (or `id`): a hidden
 * input of a login form, a `<meta name="csrf-token">`. The regex is checked to read the value back.
 */
function htmlFieldOrigin(exchange: Exchange, text: string, written: string, value: string): Origin | undefined {
  const attr = text.indexOf(`="${written}"`);
  if (attr < 0) return undefined;
  const start = text.lastIndexOf('<', attr);
  const end = text.indexOf('>', attr);
  if (start < 0 || end < 0 || attr - start > 2000) return undefined;
  const tag = text.slice(start, end + 1);
  const valueAttr = /\s(value|content)="$/.exec(text.slice(start, attr + 2))?.[1];
  const name = /\s(?:name|id)="([^"]{1,200})"/.exec(tag)?.[1];
  if (!valueAttr || !name) return undefined;
  const quoted = escapeRegex(name);
  const nameFirst = tag.indexOf(`"${name}"`) < tag.indexOf(`${valueAttr}="`);
  const regex = nameFirst ? `"${quoted}"[^>]*?\\s${valueAttr}="([^"]*)"` : `\\s${valueAttr}="([^"]*)"[^>]*?"${quoted}"`;
  return readsBack(regex, text, value) ? { exchange, location: 'body', key: name, regex, what: `page field "${name}" (${tag.slice(1).split(/\s/)[0]} ${valueAttr})` } : undefined;
}

/** A regex anchored on the text just before the value, up to the next quote, blank or bracket. */
function aroundOrigin(exchange: Exchange, text: string, value: string, at: number): Origin | undefined {
  if (/["'<>\s]/.test(value)) return undefined;
  const anchor = text.slice(Math.max(0, at - ANCHOR_CHARS), at).replace(/^[^\n]*\n/, '');
  if (anchor.length < 4) return undefined;
  const regex = `${escapeRegex(anchor)}([^"'<>\\s]+)`;
  return readsBack(regex, text, value) ? { exchange, location: 'body', key: 'value', regex, what: 'text of the page' } : undefined;
}

/** Whether the regex reads the value back as the runtime's extraction will (references decoded in markup). */
function readsBack(regex: string, text: string, value: string): boolean {
  try {
    const read = compileUserRegex(regex).exec(text)?.[1];
    return read !== undefined && markupValue(text, read) === value;
  } catch {
    return false;
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
