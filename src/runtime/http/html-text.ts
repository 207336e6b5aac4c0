/**
 * What a person reads on an HTML page, found by one linear pass over its markup: a server's answer
 * is untrusted input, so no regex walks the markup and every buffer is bounded.
 */

/** The readable side of an HTML page. */
export interface HtmlReading {
  /** The page's visible text: tags, comments, scripts, styles and `<head>` left out, whitespace collapsed. */
  text: string;
  /**
   * Texts of the elements the page marks as an error message (`role=alert`, `.errorlist`,
   * `.errornote`, `.error`…, `#login_error`, `.alert-danger`, the description of an
   * `aria-invalid` field), in document order; the innermost when they nest.
   */
  messages: string[];
  /** Whether the page holds a password field. */
  passwordField: boolean;
  /** Where the page's forms post (their `action`, `''` when absent). */
  formActions: string[];
}

/** Markup read at most: a sign-in page is small; the rest of a huge one is not looked at. */
const MAX_MARKUP = 1024 * 1024;
/** Readable text kept at most (errors show a few hundred characters of it). */
const MAX_TEXT = 64 * 1024;
/** Messages kept at most, and the longest kept. */
const MAX_MESSAGES = 5;
const MAX_MESSAGE_CHARS = 500;
/** Open elements tracked at most: deeper nesting is read as text of the deepest tracked one. */
const MAX_DEPTH = 256;
/** Attributes of one tag read at most. */
const MAX_ATTRIBUTES = 64;
/** Form actions kept at most. */
const MAX_FORMS = 20;

/** Elements whose content is never shown as text. */
const HIDDEN_CONTENT = new Set(['script', 'style', 'template', 'noscript', 'svg', 'math', 'head', 'title', 'textarea', 'select', 'iframe', 'object']);
/** Elements whose content is raw text: their end is found by name, markup inside is not markup. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);
/** Elements that never have content. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen']);
/** Inline elements: no word break at their tags. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: Map<string, string>;
}

interface Open {
  name: string;
  hidden: boolean;
  /** Index in `captures` of the message this element holds, when it is marked as one. */
  capture?: number;
}

interface Capture {
  text: string;
  /** Whether a message nested inside it had text (the inner one is the more precise). */
  hasInner: boolean;
}

/**
 * Reads an HTML page as a person would: its visible text and the error messages it marks as such.
 * Linear in the markup's length (at most {@link MAX_MARKUP} characters are read).
 *
 * @example
 * readHtml('<ul class="errorlist"><li>Please enter the correct username and password.</li></ul>').messages;
 * // ['Please enter the correct username and password.']
 */
export function readHtml(html: string): HtmlReading {
  const markup = html.length > MAX_MARKUP ? html.slice(0, MAX_MARKUP) : html;
  const describedBy = invalidFieldDescriptions(markup);
  const reader = new Reader(describedBy);
  scan(markup, reader);
  return reader.result();
}

/**
 * Whether a response body is an HTML page: its `Content-Type` says so, or it starts like one.
 *
 * @example
 * looksLikeHtml('<!DOCTYPE html><html>…', undefined); // true
 */
export function looksLikeHtml(body: string, contentType: string | undefined): boolean {
  if (contentType !== undefined && /html/i.test(contentType)) return true;
  const start = body.slice(0, 512).trimStart().slice(0, 16).toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head') || start.startsWith('<body');
}

/** Ids that describe a field marked `aria-invalid`: the field's error message. */
function invalidFieldDescriptions(markup: string): Set<string> {
  const ids = new Set<string>();
  // A cheap test first: most pages mark no field invalid, and need no second pass.
  if (!markup.includes('aria-invalid')) return ids;
  scan(markup, {
    tag(tag) {
      const invalid = tag.attributes.get('aria-invalid');
      if (invalid === undefined || invalid.toLowerCase() === 'false') return;
      for (const name of ['aria-describedby', 'aria-errormessage']) {
        for (const id of (tag.attributes.get(name) ?? '').split(/\s+/)) if (id && ids.size < 50) ids.add(id);
      }
    },
    text() {},
  });
  return ids;
}

interface Sink {
  tag(tag: Tag): void;
  text(text: string): void;
}

/** One pass over the markup: each character is looked at a bounded number of times. */
function scan(markup: string, sink: Sink): void {
  const lower = markup.toLowerCase();
  let at = 0;
  while (at < markup.length) {
    const lt = markup.indexOf('<', at);
    if (lt === -1) {
      sink.text(markup.slice(at));
      return;
    }
    if (lt > at) sink.text(markup.slice(at, lt));
    if (markup.startsWith('<!--', lt)) {
      const end = markup.indexOf('-->', lt + 4);
      at = end === -1 ? markup.length : end + 3;
      continue;
    }
    const next = markup.charAt(lt + 1);
    if (next === '!' || next === '?') {
      const end = markup.indexOf('>', lt + 2);
      at = end === -1 ? markup.length : end + 1;
      continue;
    }
    if (!/[a-zA-Z/]/.test(next)) {
      sink.text('<');
      at = lt + 1;
      continue;
    }
    const parsed = parseTag(markup, lt);
    at = parsed.end;
    if (!parsed.tag) continue;
    sink.tag(parsed.tag);
    if (!parsed.tag.closing && !parsed.tag.selfClosing && RAW_TEXT.has(parsed.tag.name)) {
      // Raw text: its end is the first `</name`; nothing inside is markup.
      const close = lower.indexOf(`</${parsed.tag.name}`, at);
      const end = close === -1 ? markup.length : close;
      if (!HIDDEN_CONTENT.has(parsed.tag.name)) sink.text(markup.slice(at, end));
      at = end;
    }
  }
}

/** The tag that starts at `lt` (a `<` followed by a letter or `/`), and where it ends. */
function parseTag(markup: string, lt: number): { tag?: Tag; end: number } {
  let at = lt + 1;
  const closing = markup.charAt(at) === '/';
  if (closing) at++;
  const nameStart = at;
  while (at < markup.length && !isSpace(markup.charCodeAt(at)) && markup.charAt(at) !== '>' && markup.charAt(at) !== '/') at++;
  const name = markup.slice(nameStart, at).toLowerCase();
  const attributes = new Map<string, string>();
  let selfClosing = false;
  while (at < markup.length) {
    const char = markup.charAt(at);
    if (char === '>') {
      at++;
      break;
    }
    if (char === '/' || isSpace(markup.charCodeAt(at))) {
      if (char === '/' && markup.charAt(at + 1) === '>') selfClosing = true;
      at++;
      continue;
    }
    const attrStart = at;
    while (at < markup.length && !isSpace(markup.charCodeAt(at)) && !'=>/'.includes(markup.charAt(at))) at++;
    // A lone `/` or `=` would not move `at`: step over it so the loop always advances.
    if (at === attrStart) at++;
    const attrName = markup.slice(attrStart, at).toLowerCase();
    let value = '';
    let look = at;
    while (look < markup.length && isSpace(markup.charCodeAt(look))) look++;
    if (markup.charAt(look) === '=') {
      look++;
      while (look < markup.length && isSpace(markup.charCodeAt(look))) look++;
      const quote = markup.charAt(look);
      if (quote === '"' || quote === "'") {
        const close = markup.indexOf(quote, look + 1);
        const end = close === -1 ? markup.length : close;
        value = markup.slice(look + 1, end);
        at = end + 1;
      } else {
        const valueStart = look;
        while (look < markup.length && !isSpace(markup.charCodeAt(look)) && markup.charAt(look) !== '>') look++;
        value = markup.slice(valueStart, look);
        at = look;
      }
    }
    if (attrName && attributes.size < MAX_ATTRIBUTES && !attributes.has(attrName)) attributes.set(attrName, decodeEntities(value));
  }
  if (!name) return { end: at };
  return { tag: { name, closing, selfClosing: selfClosing || VOID.has(name), attributes }, end: at };
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** Builds the reading from the tags and texts of {@link scan}. */
class Reader implements Sink {
  private readonly stack: Open[] = [];
  private readonly captures: Capture[] = [];
  /** Indexes in `captures` of the messages open now, outermost first (at most MAX_MESSAGES * 4). */
  private readonly active: number[] = [];
  private visible = '';
  private passwordField = false;
  private readonly formActions: string[] = [];

  constructor(private readonly describedBy: Set<string>) {}

  tag(tag: Tag): void {
    if (tag.closing) return this.close(tag.name);
    // A page that never closes its <head> shows its <body> all the same.
    if (tag.name === 'body' && this.stack.some((open) => open.name === 'head')) this.close('head');
    if (tag.name === 'input' && (tag.attributes.get('type') ?? '').toLowerCase() === 'password') this.passwordField = true;
    if (tag.name === 'form' && this.formActions.length < MAX_FORMS) this.formActions.push(tag.attributes.get('action') ?? '');
    if (!INLINE.has(tag.name)) this.append(' ');
    if (tag.selfClosing) return;
    const parentHidden = this.stack.at(-1)?.hidden ?? false;
    const hidden = parentHidden || HIDDEN_CONTENT.has(tag.name) || tag.attributes.has('hidden') || tag.attributes.get('aria-hidden') === 'true';
    const open: Open = { name: tag.name, hidden };
    if (!hidden && this.marksMessage(tag) && this.captures.length < MAX_MESSAGES * 4) {
      open.capture = this.captures.push({ text: '', hasInner: false }) - 1;
    }
    if (this.stack.length < MAX_DEPTH) {
      this.stack.push(open);
      if (open.capture !== undefined) this.active.push(open.capture);
    }
  }

  text(raw: string): void {
    if (this.stack.at(-1)?.hidden) return;
    const text = decodeEntities(raw);
    this.append(text);
    for (const index of this.active) {
      const capture = this.captures[index] as Capture;
      if (capture.text.length < MAX_MESSAGE_CHARS * 2) capture.text += text;
    }
  }

  result(): HtmlReading {
    const messages: string[] = [];
    for (const capture of this.captures) {
      const text = collapse(capture.text);
      if (!text || capture.hasInner || messages.includes(text)) continue;
      if (messages.length < MAX_MESSAGES) messages.push(text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text);
    }
    return { text: collapse(this.visible), messages, passwordField: this.passwordField, formActions: this.formActions };
  }

  private append(text: string): void {
    if (this.visible.length < MAX_TEXT) this.visible += text;
  }

  private close(name: string): void {
    if (!INLINE.has(name)) this.append(' ');
    // Close up to the nearest open element of that name; a stray end tag closes nothing.
    let index = this.stack.length - 1;
    while (index >= 0 && this.stack[index]?.name !== name) index--;
    if (index < 0) return;
    while (this.stack.length > index) this.finish(this.stack.pop() as Open);
  }

  private finish(open: Open): void {
    if (open.capture === undefined) return;
    this.active.pop();
    const capture = this.captures[open.capture] as Capture;
    if (!collapse(capture.text)) return;
    // The messages still open around this one hold it: the inner one is kept.
    for (const outer of this.active) (this.captures[outer] as Capture).hasInner = true;
  }

  private marksMessage(tag: Tag): boolean {
    const role = tag.attributes.get('role')?.toLowerCase();
    if (role === 'alert' || role === 'alertdialog') return true;
    const id = tag.attributes.get('id');
    if (id !== undefined && (id === 'login_error' || this.describedBy.has(id))) return true;
    for (const token of (tag.attributes.get('class') ?? '').toLowerCase().split(/\s+/)) {
      if (token.includes('error') || token === 'alert-danger' || token === 'invalid-feedback') return true;
    }
    return false;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', mdash: '—', ndash: '–', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', copy: '©' };

/**
 * Decodes character references: numeric ones, and the named ones error pages use. The regex is
 * linear (bounded repetitions, no nesting).
 */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return Object.hasOwn(NAMED, ref) ? (NAMED[ref] as string) : whole;
  });
}
