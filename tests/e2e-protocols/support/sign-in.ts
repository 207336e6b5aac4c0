import { expect } from '@playwright/test';
import { request } from 'undici';
import { MultiAuthError } from '../../../src/core/errors.js';
import { MASK, type Redactor } from '../../../src/core/redactor.js';
import { applySession, type OutgoingRequest } from '../../../src/runtime/session/apply.js';
import type { HeaderPair } from '../../../src/runtime/http/observation.js';
import type { Session } from '../../../src/runtime/session/session.js';

export { planFromYaml } from '../../support/plan.js';
export { writeTempConfig } from '../../support/temp-files.js';

/** What a protected call answered, and the request as it went out. */
export interface ProtectedCall {
  status: number;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
  /** The request after `applySession`: what the server was sent. */
  sent: OutgoingRequest;
}

/**
 * Sends one request as the session's user: `applySession` decides what it carries (as for every
 * authenticated request), undici sends it.
 *
 * @example
 * const me = await callAs(session, { method: 'GET', url: oauth.whoamiUrl, headers: [] });
 * me.json.sub; // 'alice'
 */
export async function callAs(session: Session, outgoing: OutgoingRequest): Promise<ProtectedCall> {
  const sent = applySession(session, outgoing);
  const response = await request(sent.url, {
    method: sent.method as 'GET',
    headers: sent.headers.flat(),
    ...(sent.body === undefined ? {} : { body: sent.body }),
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, text, json, sent };
}

/**
 * The value of header `name` (case-insensitive) among header pairs, or undefined.
 *
 * @example
 * headerOf(call.sent.headers, 'authorization'); // 'Bearer ...'
 */
export function headerOf(headers: readonly HeaderPair[], name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

/**
 * The `MultiAuthError` a sign-in fails with; fails the test when it succeeds or throws anything else.
 *
 * @example
 * const error = await signInFailure(authenticate(plan, 'alice', { redactor }));
 */
export async function signInFailure(run: Promise<unknown>): Promise<MultiAuthError> {
  const outcome = await run.then(
    () => new Error('the sign-in succeeded, but it was expected to fail'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof MultiAuthError)) throw outcome;
  return outcome;
}

/**
 * Asserts that the rendered error shows none of `secrets`, that the redactor masks each of them,
 * and that nothing the redactor knows is left in the text.
 *
 * @example
 * expectNoSecrets(error, redactor, ['alice-password']);
 */
export function expectNoSecrets(error: MultiAuthError, redactor: Redactor, secrets: string[]): string {
  const rendered = error.render();
  for (const secret of secrets) {
    expect(rendered).not.toContain(secret);
    expect(redactor.redact(`[${secret}]`)).toBe(`[${MASK}]`);
  }
  expect(redactor.redact(rendered)).toBe(rendered);
  return rendered;
}

/**
 * A YAML scalar holding `value` exactly (a JSON string is a YAML double-quoted scalar).
 *
 * @example
 * `password: ${yamlString('b0b: "the builder"')}`
 */
export function yamlString(value: string): string {
  return JSON.stringify(value);
}
