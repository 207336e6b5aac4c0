/**
 * URLs as messages show them: without user info, query values or fragment, which may hold
 * passwords, tokens or an unredeemed authorization code (docs/errors.md).
 */

/**
 * An http(s) URL inside a text, up to the first blank, quote or bracket. One greedy character
 * class, so matching stays linear in the text's length; no length cap, which would leave the tail
 * of a long URL (its query) uncut.
 */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>()[\]{}`]+/g;

/**
 * A URL for messages: without user info, query values or fragment (they may hold secrets); the
 * query's names stay, so that the message still says what was asked.
 *
 * @example
 * redactedUrl('https://u:p@a.test/login?password=x#t'); // 'https://a.test/login?password=…'
 */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.hash = '';
    const names = [...new Set(parsed.searchParams.keys())].slice(0, 100);
    parsed.search = '';
    return parsed.href + (names.length ? `?${names.map((n) => `${n}=…`).join('&')}` : '');
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

/**
 * `text` with every http(s) URL in it passed through {@link redactedUrl}: for messages that quote
 * URLs they did not build (a browser's error, a page's address).
 *
 * @example
 * redactUrlsIn('navigating to "https://a.test/cb?code=x", waiting'); // 'navigating to "https://a.test/cb?code=…", waiting'
 */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => {
    // A sentence's full stop or comma after a URL is not part of it.
    const trail = /[.,;:!]+$/.exec(url)?.[0] ?? '';
    return redactedUrl(url.slice(0, url.length - trail.length)) + trail;
  });
}
