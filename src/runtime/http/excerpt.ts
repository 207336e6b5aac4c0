import type { Redactor } from '../../core/redactor.js';
import { looksLikeHtml, readHtml, type HtmlReading } from './html-text.js';
import type { HeaderPair, Observation, ObservedResponse } from './observation.js';

/** How much of a failing response's body an error shows. */
export const BODY_EXCERPT_CHARS = 500;

/**
 * The recommended fix when a sign-in was answered with its own form: what a wrong password gets
 * from most form logins (Django, WordPress, Rails), whatever the status.
 */
export const FORM_AGAIN_HINT =
  'The server answered the sign-in with its form again: the credentials were probably refused (check the user\'s ' +
  'username and password, and the message quoted above). If they are right, check that the request sends every field ' +
  'the form has (a CSRF token, hidden fields) under the names the form uses.';

/**
 * A body for an error message: redacted FIRST (so a secret cut in half by the excerpt is still
 * masked), whitespace runs collapsed, then cut to `limit` characters.
 *
 * @example
 * bodyExcerpt('{"error":"bad password hunter2"}', redactor); // '{"error":"bad password ********"}'
 */
export function bodyExcerpt(body: string, redactor: Redactor, limit = BODY_EXCERPT_CHARS): string {
  const flat = redactor.redact(body).replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}… (${flat.length - limit} more characters)` : flat;
}

/**
 * The detail lines that show a response body in an error, `label` naming it (`response body`).
 * An HTML page is shown as a person reads it: first the error message the page marks as such
 * (`the page says: "…"`), then its visible text, with markup, scripts and styles left out, so a
 * 403 page whose first kilobytes are CSS still shows its sentence. Anything else is
 * {@link bodyExcerpt}. Everything is redacted before it is cut.
 *
 * @example
 * bodyLines('<style>…</style><p class="errornote">Please enter the correct username and password.</p>', redactor, 'response body', 'text/html');
 * // ['the page says: "Please enter the correct username and password."',
 * //  'response body: an HTML page (1234 characters) reading: "Log in Please enter …"']
 */
export function bodyLines(body: string, redactor: Redactor, label: string, contentType?: string): string[] {
  if (!body) return [`${label}: (empty)`];
  if (!looksLikeHtml(body, contentType)) return [`${label}: ${bodyExcerpt(body, redactor)}`];
  const page = reading(body);
  const says = page.messages.map((message) => `"${bodyExcerpt(message, redactor, 300)}"`).join('; ');
  const text = page.text ? ` reading: "${bodyExcerpt(page.text, redactor)}"` : NO_TEXT;
  return [...(says ? [`the page says: ${bodyExcerpt(says, redactor, BODY_EXCERPT_CHARS)}`] : []), `${label}: an HTML page (${body.length} characters)${text}`];
}

/**
 * The detail line that quotes what a server's answer means (an OAuth error, a JSON refusal's words),
 * redacted and cut as {@link bodyExcerpt}: one wording for every error that quotes it.
 *
 * @example
 * serverSaysLine('Failed: Incorrect username or password entered.', redactor);
 * // 'the server says: Failed: Incorrect username or password entered.'
 */
export function serverSaysLine(meaning: string, redactor: Redactor): string {
  return `the server says: ${bodyExcerpt(meaning, redactor)}`;
}

/** How {@link bodyLines} ends the line of a page with nothing to read (a script-only page). */
export const NO_TEXT = ' with no visible text';

/**
 * Whether a step that sent a form (a POST of `application/x-www-form-urlencoded` or
 * `multipart/form-data`, as a browser submits one) was answered with a sign-in form: its last response is
 * an HTML page with a password field, or with a form that posts where the step posted. A refused
 * password at Django, WordPress or Rails looks so, with a 200 or a 4xx.
 *
 * @example
 * if (answeredWithForm(observation)) hint = FORM_AGAIN_HINT;
 */
export function answeredWithForm(observation: Observation): boolean {
  const posted = observation.requests.find((request) => request.method === 'POST' && postsForm(request.headers));
  const last = observation.responses.at(-1);
  if (!posted || !last?.body || !looksLikeHtml(last.body, contentTypeOf(last))) return false;
  const page = reading(last.body);
  if (page.passwordField) return true;
  const postedPath = pathOf(posted.url, posted.url);
  return postedPath !== undefined && page.formActions.some((action) => pathOf(action || last.url, last.url) === postedPath);
}

/**
 * Whether a page (a sign-in's last response body) holds a password field: a sign-in that ends
 * there did not get past its form.
 *
 * @example
 * showsPasswordForm('<form><input type="password" name="pwd"></form>'); // true
 */
export function showsPasswordForm(body: string): boolean {
  return looksLikeHtml(body, undefined) && reading(body).passwordField;
}

/**
 * The `Content-Type` of a response, lowercased (`''` when it has none).
 *
 * @example
 * contentTypeOf(response); // 'text/html; charset=utf-8'
 */
export function contentTypeOf(response: ObservedResponse): string {
  return (response.headers.find(([name]: HeaderPair) => name.toLowerCase() === 'content-type')?.[1] ?? '').toLowerCase();
}

function postsForm(headers: HeaderPair[]): boolean {
  const type = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1].toLowerCase() ?? '';
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
}

function pathOf(url: string, base: string): string | undefined {
  try {
    return new URL(url, base).pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/** The last page read: an error reads the same body for its lines and its hint. */
let last: { body: string; page: HtmlReading } | undefined;

function reading(body: string): HtmlReading {
  if (last?.body === body) return last.page;
  const page = readHtml(body);
  last = { body, page };
  return page;
}
