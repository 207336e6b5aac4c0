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

/**
 * The user-info of a URL that carries a password (`://user:password@`), from the `://` on, so that
 * matching stays linear: no scheme is scanned, and neither part can hold `/`, `@` or a blank.
 */
const URL_USER_INFO = /:\/\/([^\s/?#@:'"<>`]*):([^\s/?#@'"<>`]*)@/g;

/** A password that is a template (`{{password}}`) names a value; it is no value itself. */
const TEMPLATE_ONLY = /^\{\{[^{}]*\}\}$/;

/**
 * The passwords that URLs in `text` carry in their user-info (`http://user:password@proxy:3128`),
 * as written and percent-decoded, and each `user:password` pair decoded (the form that HTTP Basic
 * and `Proxy-Authorization` encode): for registering as secrets. Templates are left out.
 *
 * @example
 * urlPasswords('proxy http://bob:p%40ss@proxy.test:3128'); // ['p%40ss', 'p@ss', 'bob:p@ss']
 */
export function urlPasswords(text: string): string[] {
  const found: string[] = [];
  if (!text.includes('://')) return found;
  for (const m of text.matchAll(URL_USER_INFO)) {
    const [, user = '', password = ''] = m;
    if (password === '' || TEMPLATE_ONLY.test(password)) continue;
    const decoded = decodedOrAsIs(password);
    found.push(password, decoded, `${decodedOrAsIs(user)}:${decoded}`);
  }
  return found;
}

/**
 * `text` with the password of every URL's user-info replaced by `mask` (the user name stays: it
 * says which account, as `username` does elsewhere). For texts that print URLs as the config wrote
 * them, such as proxies in `validate --explain`: a password of any length is masked, even one too
 * short for the run's redactor.
 *
 * @example
 * maskUrlPasswords('proxy http://bob:pw@proxy.test:3128', '********'); // 'proxy http://bob:********@proxy.test:3128'
 */
export function maskUrlPasswords(text: string, mask: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_USER_INFO, (match: string, user: string, password: string) =>
    password === '' || TEMPLATE_ONLY.test(password) ? match : `://${user}:${mask}@`,
  );
}

function decodedOrAsIs(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
