import type { ErrorAdditions } from '../../core/error-context.js';
import { isMultiAuthError } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';
import { FORM_AGAIN_HINT, NO_TEXT, answeredWithForm, bodyLines, contentTypeOf } from '../http/excerpt.js';
import { looksLikeHtml } from '../http/html-text.js';
import type { Observation } from '../http/observation.js';

/** The recommended fix when the server deleted a cookie in its answer: how apps such as phpMyAdmin refuse a password. */
export const DELETED_COOKIE_HINT =
  'The server deleted a cookie in its answer (Max-Age=0 or an expiry in the past), as apps do when they refuse a ' +
  'sign-in: the credentials were probably refused (check the user\'s username and password, and the message quoted above).';

/**
 * What a failed step's error gains from the answer the step got: an HTML page's own words (its
 * error message and visible text, which an extraction's error would only count in characters),
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
  const lines = html !== undefined && last && !showsBody ? bodyLines(html, redactor, 'the last response', contentTypeOf(last)) : [];
  // A page with nothing to read adds nothing to the extraction's "an HTML page (N characters)".
  const readable = lines.length > 1 || (lines[0] !== undefined && !lines[0].endsWith(NO_TEXT));
  return {
    ...(readable && { details: lines }),
    ...(answeredWithForm(observation) ? { hint: FORM_AGAIN_HINT } : error.code === 'EXTRACTION_NOT_FOUND' && deletedCookie(observation) ? { hint: DELETED_COOKIE_HINT } : {}),
  };
}

function deletedCookie(observation: Observation, now = Date.now()): boolean {
  return observation.cookies.some((cookie) => cookie.expires !== undefined && cookie.expires * 1000 <= now);
}
