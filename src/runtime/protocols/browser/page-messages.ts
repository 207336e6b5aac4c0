import type { Page } from 'playwright-core';

/** What a page of a sign-in shows about a refusal. */
export interface PageMessages {
  /** Whether a visible password field is on the page (a sign-in form). */
  passwordField: boolean;
  /** Visible texts of the elements the page marks as error messages, innermost, at most 3. */
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
 * visible text of the elements marked as error messages (`role=alert`, `.errorlist`,
 * `.errornote`, `#login_error`, `.error`, `.alert-danger`, a class naming an error, the
 * description of an `aria-invalid` field). Undefined when the page cannot be read in time.
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
      '[role="alert"], [role="alertdialog"], .errorlist, .errornote, #login_error, .error, .errors, .alert-danger, .invalid-feedback, #flash_error, [class*="error" i]',
    ),
  ).slice(0, 200);
  for (const field of Array.from(document.querySelectorAll('[aria-invalid="true"]')).slice(0, 20)) {
    for (const id of `${field.getAttribute('aria-describedby') ?? ''} ${field.getAttribute('aria-errormessage') ?? ''}`.split(/\s+/)) {
      const described = id ? document.getElementById(id) : null;
      if (described) marked.push(described);
    }
  }
  const shown = marked.filter((element) => visible(element) && textOf(element) !== '');
  const messages: string[] = [];
  for (const element of shown) {
    // The innermost message: a wrapper marked as an error holds the same words and more.
    if (shown.some((other) => other !== element && element.contains(other))) continue;
    const text = textOf(element).slice(0, 300);
    if (!messages.includes(text)) messages.push(text);
    if (messages.length >= 3) break;
  }
  return { passwordField, messages };
}
