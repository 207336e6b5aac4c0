/**
 * HTML character references in attribute values: a hidden input's value is written with `&amp;`
 * for `&` (a SAML `AuthState`, a WordPress `redirect_to` with a query), and what the browser sends
 * back is the decoded text.
 */

/** The references servers write in attribute values: the five of XML, and numeric ones. */
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6}));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * `text` with its character references decoded: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
 * `&#NNN;` and `&#xHH;` (a code point past Unicode's, or a surrogate, stays as written). One pass,
 * linear in the text; other named references are left as they are.
 *
 * @see https://html.spec.whatwg.org/multipage/syntax.html#character-references
 * @example
 * decodeHtmlEntities('a=1&amp;b=2'); // 'a=1&b=2'
 */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, name: string | undefined, decimal: string | undefined, hex: string | undefined) => {
    if (name) return NAMED[name] ?? whole;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return whole;
    return String.fromCodePoint(code);
  });
}

/**
 * A value a regex read out of a body, as the server meant it: decoded when the body is markup
 * (it starts with `<`: HTML or XML, whose attribute values are written with references), else as
 * it is.
 *
 * @example
 * markupValue('<input value="a&amp;b">', 'a&amp;b'); // 'a&b'
 */
export function markupValue(body: string, value: string): string {
  return value.includes('&') && /^\s*</.test(body.slice(0, 1024)) ? decodeHtmlEntities(value) : value;
}

/**
 * `text` as a server writes it in a double-quoted attribute value (`&`, `<`, `>` and `"` as
 * references), to find a value the browser sent in the page that held it.
 *
 * @example
 * encodeHtmlAttribute('a&b'); // 'a&amp;b'
 */
export function encodeHtmlAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
