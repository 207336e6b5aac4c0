import { holdsTemplateBlock, scanTemplate } from '../../core/template-expr.js';
import { curlParseError } from './errors.js';

/**
 * Whether `text` holds a `{{ name }}` template (filled in at run time, after parsing).
 *
 * @example
 * hasTemplate('user={{username}}'); // true
 * hasTemplate('a={b}');             // false
 */
export function hasTemplate(text: string): boolean {
  return holdsTemplateBlock(text);
}

/**
 * curl's `--data-urlencode` encoding: letters, digits and `-._~` are kept, a space becomes `+`,
 * every other byte of the UTF-8 text becomes `%XX` (upper case). Checked against curl 7.88.
 *
 * @see https://curl.se/docs/manpage.html#--data-urlencode
 * @example
 * curlUrlencode("a b&c=d'é"); // 'a+b%26c%3Dd%27%C3%A9'
 */
export function curlUrlencode(text: string): string {
  try {
    return encodeURIComponent(text)
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  } catch {
    throw curlParseError('--data-urlencode content is not valid text (a lone surrogate)', 'Remove the broken character.');
  }
}

/**
 * {@link curlUrlencode} on everything but `{{ name }}` templates, which stay as written so that the
 * runtime can fill them in (the runtime encodes them when the body allows it, see `buildRequest`).
 *
 * @example
 * urlencodeKeepingTemplates('p w {{password}}'); // 'p+w+{{password}}'
 */
export function urlencodeKeepingTemplates(text: string): string {
  let out = '';
  let last = 0;
  for (const block of scanTemplate(text).blocks) {
    out += curlUrlencode(text.slice(last, block.start)) + text.slice(block.start, block.end);
    last = block.end;
  }
  return out + curlUrlencode(text.slice(last));
}

/**
 * Decodes one `application/x-www-form-urlencoded` component (`+` is a space); text that is not
 * valid percent-encoding is kept as written.
 *
 * @see https://url.spec.whatwg.org/#urlencoded-parsing
 * @example
 * formDecode('a+b%26c'); // 'a b&c'
 * formDecode('100%');    // '100%'
 */
export function formDecode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * Splits form data (`a=1&b=2`) into name/value pairs, decoded; a part without `=` has an empty
 * value; empty parts are skipped.
 *
 * @example
 * formPairs('a=1&b=x+y&c'); // [['a', '1'], ['b', 'x y'], ['c', '']]
 */
export function formPairs(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    pairs.push(eq === -1 ? [formDecode(part), ''] : [formDecode(part.slice(0, eq)), formDecode(part.slice(eq + 1))]);
  }
  return pairs;
}
