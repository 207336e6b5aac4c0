import { decodeHtmlEntities } from '../../../core/html-entities.js';

/** Markup and text read at most for links: a mail's size is bounded by its source, this bounds the work. */
const MAX_SCANNED = 1024 * 1024;
/** Links kept at most per mail (a newsletter may have hundreds; a sign-in mail has a few). */
export const MAX_LINKS = 200;
/** The longest link kept (longer ones are no sign-in link, or are cut by mail clients anyway). */
const MAX_LINK_LENGTH = 8192;

const TEXT_LINK = /https?:\/\/[^\s<>"'`\u00a0]+/gi;
/** What ends a sentence rather than a URL: left out at a text link's end. */
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', '>', '*']);

/**
 * The http(s) links of a mail, each once, in the order a person meets them: the `href`s of the
 * HTML part's `<a>` and `<area>` elements first (character references decoded: `&amp;` in an
 * `href` is `&`), then the URLs written in the text part (punctuation that ends a sentence left out).
 * One linear pass over at most 1 MiB of each; at most {@link MAX_LINKS} links.
 *
 * @example
 * mailLinks('<a href="https://a.test/v?t=1&amp;u=2">Sign in</a>', 'Or open https://a.test/v?t=1&u=2.');
 * // ['https://a.test/v?t=1&u=2']
 */
export function mailLinks(html: string | undefined, text: string | undefined): string[] {
  const links = new Set<string>();
  const add = (link: string) => {
    if (links.size < MAX_LINKS && link.length <= MAX_LINK_LENGTH && /^https?:\/\/[^/?#\s]/i.test(link)) links.add(link);
  };
  if (html !== undefined) for (const href of anchorHrefs(html.slice(0, MAX_SCANNED))) add(href);
  if (text !== undefined) {
    for (const match of text.slice(0, MAX_SCANNED).matchAll(TEXT_LINK)) {
      if (links.size >= MAX_LINKS) break;
      add(withoutTrailingPunctuation(match[0]));
    }
  }
  return [...links];
}

/** A loop, not a regex: `[.,]+$` on a long run of dots is quadratic in a backtracking engine. */
function withoutTrailingPunctuation(link: string): string {
  let end = link.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(link[end - 1]!)) end--;
  return link.slice(0, end);
}

/** The `href` values of `<a>` and `<area>` tags, decoded and trimmed, in document order. */
function anchorHrefs(html: string): string[] {
  const lower = html.toLowerCase();
  const out: string[] = [];
  let at = 0;
  while (out.length < MAX_LINKS) {
    const tag = nextAnchor(lower, at);
    if (tag === -1) break;
    const end = lower.indexOf('>', tag);
    const close = end === -1 ? lower.length : end;
    const href = hrefIn(html, lower, tag, close);
    if (href !== undefined) out.push(decodeHtmlEntities(href).trim());
    at = close + 1;
  }
  return out;
}

/** Where the next `<a` or `<area` tag starts (followed by whitespace), or -1. */
function nextAnchor(lower: string, from: number): number {
  let at = from;
  for (;;) {
    const open = lower.indexOf('<a', at);
    if (open === -1) return -1;
    const rest = lower.startsWith('<area', open) ? open + 5 : open + 2;
    if (/[\s/]/.test(lower[rest] ?? '')) return open;
    at = open + 2;
  }
}

/** The `href` attribute's value within one tag (`lower` is `html` in lower case), or undefined. */
function hrefIn(html: string, lower: string, start: number, end: number): string | undefined {
  // Searched within the tag only: a search to the end of the markup per tag would be quadratic.
  const tag = lower.slice(start, end);
  let at = 0;
  for (;;) {
    const found = tag.indexOf('href', at);
    if (found === -1) return undefined;
    at = found + 4;
    if (!/\s/.test(tag[found - 1] ?? '')) continue;
    let i = at;
    while (i < tag.length && /\s/.test(tag[i]!)) i++;
    if (tag[i] !== '=') continue;
    i++;
    while (i < tag.length && /\s/.test(tag[i]!)) i++;
    const quote = tag[i];
    if (quote === '"' || quote === "'") {
      const closing = tag.indexOf(quote, i + 1);
      return html.slice(start + i + 1, start + (closing === -1 ? tag.length : closing));
    }
    let j = i;
    while (j < tag.length && !/[\s>]/.test(tag[j]!)) j++;
    return html.slice(start + i, start + j);
  }
}
