import { describeExchange } from './chain.js';
import type { Exchange } from './exchanges.js';

/** What a signed-in page shows and a signed-out one does not, the likeliest first (literal text). */
const SIGNED_IN_MARKERS = ['Log out', 'Log Out', 'Logout', 'Sign out', 'Sign Out', 'Signout', 'Log off', 'Logged in as', 'Signed in as'];

/** Characters of a page looked through for a marker. */
const MAX_PAGE_CHARS = 1024 * 1024;

/**
 * The `match` and `not_match` of the draft's session check, drawn from the recording, for a check
 * whose answer is a page (a status alone often does not tell: a home page answers 200 to anyone):
 * `match`, a sign-out link's words the checked page shows and no page before the sign-in did;
 * `not_match`, the password field of the login form (`name="pwd"`), which a page before the
 * sign-in held and the checked page does not. Nothing for a JSON answer, or when the recording
 * shows no such difference.
 *
 * @example
 * sessionMarkers(validation, analysis.before, 'pwd'); // { match: 'Log Out', not_match: 'name="pwd"', evidence: [...] }
 */
export function sessionMarkers(
  validation: Exchange,
  before: readonly Exchange[],
  passwordField: string | undefined,
): { match?: string; not_match?: string; evidence: string[] } {
  const page = validation.responseBody;
  if (!page || page.json !== undefined) return { evidence: [] };
  const text = page.text.slice(0, MAX_PAGE_CHARS);
  const earlier = before.flatMap((e) => (e.responseBody && e.responseBody.json === undefined ? [e.responseBody.text.slice(0, MAX_PAGE_CHARS)] : []));
  const evidence: string[] = [];
  const out: { match?: string; not_match?: string } = {};
  const marker = SIGNED_IN_MARKERS.find((words) => text.includes(words) && !earlier.some((t) => t.includes(words)));
  if (marker) {
    out.match = escapeRegex(marker);
    evidence.push(`session check: the answer to ${describeExchange(validation)} shows "${marker}", which no page before the sign-in did -> match`);
  }
  const field = passwordField === undefined ? undefined : `name="${passwordField}"`;
  if (field && !text.includes(field) && earlier.some((t) => t.includes(field))) {
    out.not_match = escapeRegex(field);
    evidence.push(`session check: the login form's password field (${field}) is not on the checked page -> not_match`);
  }
  return { ...out, evidence };
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
