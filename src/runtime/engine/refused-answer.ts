import type { ErrorAdditions } from '../../core/error-context.js';
import { isMultiAuthError } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';
import { FORM_AGAIN_HINT, NO_TEXT, answeredWithForm, bodyLines, contentTypeOf, serverSaysLine } from '../http/excerpt.js';
import { looksLikeHtml } from '../http/html-text.js';
import { describeJsonRefusal } from '../http/json-refusal.js';
import type { Observation } from '../http/observation.js';

/** The recommended fix when the server deleted a cookie in its answer: how apps such as phpMyAdmin refuse a password. */
export const DELETED_COOKIE_HINT =
  'The server deleted a cookie in its answer (Max-Age=0 or an expiry in the past), as apps do when they refuse a ' +
  'sign-in: the credentials were probably refused (check the user\'s username and password, and the message quoted above).';

/**
 * What a failed step's error gains from the answer the step got: an HTML page's own words (its
 * error message and visible text, which an extraction's error would only count in characters), or
 * a JSON answer's refusal members (`error`, `errors[]`, `message`, a failed `result`'s `reason`:
 * {@link describeJsonRefusal}) quoted as a status error quotes them, with a fix that says so,
 * and, when a form sign-in was answered with the form again, the recommended fix that says the
 * credentials were probably refused rather than blaming the extraction. Browser steps quote their
 * page themselves; a status error already shows its body.
 *
 * @example
 * throw withContext(error, { context, ...explainFailedStep(error, observation, redactor) }, redactor);
 */
export function explainFailedStep(error: unknown, observation: Observation | undefined, redactor: Redactor): Pick<ErrorAdditions, 'details' | 'hint'> {
  if (!observation || !isMultiAuthError(error)) return {};
  const last = observation.responses.at(-1);
  const showsBody = error.code === 'AUTH_HTTP_STATUS' || error.code === 'AUTH_PROTOCOL';
  const html = last?.body && looksLikeHtml(last.body, contentTypeOf(last)) ? last.body : undefined;
  if (html === undefined && last?.body && !showsBody) {
    // A JSON answer that found no session may say why, in the words a status error would quote.
    const refusal = describeJsonRefusal(last.body);
    if (refusal !== undefined) {
      return { details: [serverSaysLine(refusal, redactor)], ...(error.code === 'EXTRACTION_NOT_FOUND' && { hint: jsonRefusalHint(last.status) }) };
    }
  }
  const lines = html !== undefined && last && !showsBody ? bodyLines(html, redactor, 'the last response', contentTypeOf(last)) : [];
  // A page with nothing to read adds nothing to the extraction's "an HTML page (N characters)".
  const readable = lines.length > 1 || (lines[0] !== undefined && !lines[0].endsWith(NO_TEXT));
  return {
    ...(readable && { details: lines }),
    ...(answeredWithForm(observation) ? { hint: FORM_AGAIN_HINT } : error.code === 'EXTRACTION_NOT_FOUND' && deletedCookie(observation) ? { hint: DELETED_COOKIE_HINT } : {}),
  };
}

/** The recommended fix when an extraction found nothing in a JSON answer that reads as a refusal. */
function jsonRefusalHint(status: number): string {
  return `The server answered HTTP ${status} with words that read as a refusal (quoted above): the sign-in was probably refused rather than misread. ` +
    'Check the user\'s username and password and the fields the request sends (a login token, the names the API expects); ' +
    'if the words are not a refusal, compare the extraction\'s location and key with what the server sends (the names seen are listed above).';
}

function deletedCookie(observation: Observation, now = Date.now()): boolean {
  return observation.cookies.some((cookie) => cookie.expires !== undefined && cookie.expires * 1000 <= now);
}
