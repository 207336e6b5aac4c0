import { compileUserRegex, type UserRegex } from '../../core/regex.js';
import { ON_BODY_CHARS, type SignedOutRule, type SignedOutTrigger } from './signed-out.js';

/**
 * Whether an answer's text says the session is dead by the rule's `on_body` (issue 35: a 200
 * "You are not logged in", a JSON-RPC `"Session terminated"`): the first pattern that matches its
 * first {@link ON_BODY_CHARS} characters, with the answer's status. RE2, linear in the text.
 * Kept apart from `signedOutBy` so that a worker that never reads a body never loads the regex engine.
 *
 * @example
 * signedOutByBody({ onStatus: [401], onRedirect: [], onBody: ['Session terminated'] }, 200, '{"error":{"data":"Session terminated"}}');
 * // { body: 'Session terminated', status: 200 }
 */
export function signedOutByBody(rule: SignedOutRule, status: number, body: string): SignedOutTrigger | undefined {
  if (!rule.onBody?.length) return undefined;
  const text = body.length > ON_BODY_CHARS ? body.slice(0, ON_BODY_CHARS) : body;
  const pattern = rule.onBody.find((source) => bodyRegex(source)?.test(text));
  return pattern === undefined ? undefined : { body: pattern, status };
}

/** Compiled patterns by source: a page answers many requests, and a config holds a few patterns. */
const compiled = new Map<string, UserRegex | undefined>();
const MAX_COMPILED = 256;

function bodyRegex(source: string): UserRegex | undefined {
  if (compiled.has(source)) return compiled.get(source);
  let regex: UserRegex | undefined;
  try {
    regex = compileUserRegex(source);
  } catch {
    // Compile refused it, located in the file: a pattern that reaches here matches nothing.
    regex = undefined;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(source, regex);
  return regex;
}
