import type { Page } from 'playwright-core';

/** What a page of a sign-in shows about a refusal. */
export interface PageMessages {
  /** Whether a visible password field is on the page (a sign-in form). */
  passwordField: boolean;
  /** Visible texts of the elements the page marks as messages, innermost, at most 5. */
  messages: string[];
}

/** How long reading a page may take: a page busy with a script or a dialog answers late or never. */
const READ_MS = 1000;

/**
 * The error codes of OAuth 2.0 and OpenID Connect authorization responses: with one of them, an
 * `error` query parameter is the provider's answer, not some page's own parameter.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthError
 */
const OAUTH_ERRORS = new Set([
  'invalid_request', 'unauthorized_client', 'access_denied', 'unsupported_response_type', 'invalid_scope', 'server_error',
  'temporarily_unavailable', 'interaction_required', 'login_required', 'account_selection_required', 'consent_required',
  'invalid_request_uri', 'invalid_request_object', 'request_not_supported', 'request_uri_not_supported', 'registration_not_supported',
  'invalid_client', 'invalid_grant', 'unsupported_grant_type',
]);

/**
 * The OAuth error an authorization response carries in its query or fragment (`error`, with
 * `error_description` when given), as a sentence; undefined when the URL carries none. An `error`
 * counts when its code is one of OAuth's, or when an `error_description` comes with it.
 *
 * @example
 * oauthErrorIn('http://app.test/cb?error=invalid_request&error_description=PKCE+is+required');
 * // 'the identity provider answered error=invalid_request: PKCE is required'
 */
export function oauthErrorIn(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  for (const params of [parsed.searchParams, new URLSearchParams(parsed.hash.slice(1))]) {
    const error = params.get('error');
    if (error === null) continue;
    const description = params.get('error_description');
    if (!OAUTH_ERRORS.has(error) && description === null) continue;
    const shown = error.slice(0, 100);
    return `the identity provider answered error=${shown}${description ? `: ${description.slice(0, 300)}` : ''}`;
  }
  return undefined;
}

/**
 * What the page shows about a refused sign-in: whether a password field is visible, and the
 * visible text of the elements marked as messages: `role=alert`, `alertdialog` or `status`, a live
 * region (`aria-live`), `.errorlist`, `.errornote`, `#login_error`, `.alert-danger`, a class or id
 * with a word of error, alert, danger, warning, invalid or failure in it, or ending in `red`
 * (`text-red-600`; not one saying success or info), the description of an `aria-invalid` field, and a heading
 * "Error" or one beside an error icon (with the block around it, which holds the words). A live
 * region saying it is busy (`aria-busy`, a text ending in "…") is progress, not a message.
 * Undefined when the page cannot be read in time.
 *
 * @example
 * (await readPageMessages(page))?.messages; // ['Please enter the correct username and password']
 */
export async function readPageMessages(page: Page): Promise<PageMessages | undefined> {
  if (page.isClosed()) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), READ_MS);
  });
  try {
    return await Promise.race([page.evaluate(inPage).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs in the page: self-contained. */
function inPage(): PageMessages {
  const visible = (element: Element): boolean => {
    if (element.getClientRects().length === 0) return false;
    const style = getComputedStyle(element);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const textOf = (element: Element): string => ((element as HTMLElement).innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  const passwordField = Array.from(document.querySelectorAll('input[type="password"]')).slice(0, 20).some(visible);
  const marked = Array.from(
    document.querySelectorAll(
      '[role="alert"], [role="alertdialog"], [role="status"], [aria-live]:not([aria-live="off"]), .errorlist, .errornote, #login_error, .error, .errors, .alert-danger, .invalid-feedback, #flash_error',
    ),
  ).slice(0, 200);
  // A class or id naming an error by a word of it (`callout-danger`, `is-invalid`, `text-red-600`,
  // `login-failed`); not `required`, `bordered` or `red-ui-button`, nor a success or an information.
  const errorWord = /error|danger|alert|warn|invalid|fail/i;
  const red = /(^|[-_])red([-_]?\d+)?$/i;
  const calm = /success|info|notice|hidden/i;
  const named = Array.from(
    document.querySelectorAll(
      ['error', 'danger', 'alert', 'warn', 'invalid', 'fail', 'red'].map((word) => `[class*="${word}" i], [id*="${word}" i]`).join(', '),
    ),
  ).slice(0, 2000);
  for (const element of named) {
    const tokens = [...Array.from(element.classList).slice(0, 50), element.id].filter((token) => token !== '');
    if (tokens.some((token) => calm.test(token))) continue;
    if (tokens.some((token) => errorWord.test(token) || red.test(token))) marked.push(element);
    if (marked.length >= 400) break;
  }
  // A heading "Error", or one beside an icon that says error: the block around it holds the words.
  const icon = /error|alert|warn|danger|exclamation|x-circle|times-circle|cross/i;
  for (const heading of Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')).slice(0, 50)) {
    const block = heading.parentElement;
    if (!block || block === document.body || textOf(heading).length > 40) continue;
    const icons = Array.from(block.querySelectorAll('svg, img, i, [class*="icon" i]')).slice(0, 10);
    const described = (element: Element): string =>
      [element.getAttribute('class'), element.getAttribute('aria-label'), element.getAttribute('alt'), element.getAttribute('data-icon'), element.getAttribute('title')].join(' ');
    if (/^\W*error\W*$/i.test(textOf(heading)) || icons.some((element) => icon.test(described(element)))) marked.push(block);
  }
  for (const field of Array.from(document.querySelectorAll('[aria-invalid="true"]')).slice(0, 20)) {
    for (const id of `${field.getAttribute('aria-describedby') ?? ''} ${field.getAttribute('aria-errormessage') ?? ''}`.split(/\s+/)) {
      const described = id ? document.getElementById(id) : null;
      if (described) marked.push(described);
    }
  }
  // Progress in a live region ("Signing in…") is not what the server answered.
  const busy = (element: Element): boolean => element.getAttribute('aria-busy') === 'true' || /(\u2026|\.\.\.)$/.test(textOf(element));
  const shown = marked.filter((element) => visible(element) && textOf(element) !== '' && !busy(element));
  const messages: string[] = [];
  for (const element of shown) {
    // The innermost message: a wrapper marked as an error holds the same words and more.
    if (shown.some((other) => other !== element && element.contains(other))) continue;
    const text = textOf(element).slice(0, 300);
    if (!messages.includes(text)) messages.push(text);
    if (messages.length >= 5) break;
  }
  return { passwordField, messages };
}
