import type { Plan, PlanAccess, PlanAccessRequest } from '../../compile/index.js';
import type { HeaderPair } from '../http/observation.js';
import type { DenyRules } from './matrix.js';

/** A matrix request as either sender sends it, before a session is applied. */
export interface AccessRequestParts {
  method: string;
  url: string;
  headers: HeaderPair[];
  /** Text; a JSON body is serialised, with `Content-Type: application/json` unless a header says otherwise. */
  body?: string;
}

/**
 * The parts of a matrix request ready to send (the session is applied after, by the sender).
 *
 * @example
 * accessRequestParts({ name: 'add', method: 'POST', url: 'https://a.test/posts', headers: [], body: { title: 'x' }, unsafe: true, origin: [] });
 * // { method: 'POST', url: 'https://a.test/posts', headers: [['Content-Type', 'application/json']], body: '{"title":"x"}' }
 */
export function accessRequestParts(request: PlanAccessRequest): AccessRequestParts {
  const headers: HeaderPair[] = request.headers.flatMap(({ name, values }) => values.map((value): HeaderPair => [name, value]));
  if (request.body === undefined) return { method: request.method, url: request.url, headers };
  if (typeof request.body === 'string') return { method: request.method, url: request.url, headers, body: request.body };
  if (!headers.some(([name]) => name.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/json']);
  return { method: request.method, url: request.url, headers, body: JSON.stringify(request.body) };
}

/**
 * What makes an answer a deny for `user` (`anonymous` included): the matrix's `deny` statuses, the
 * user's login page (`reauth.on_redirect`; for `anonymous`, every user's), the user's validation
 * `not_match` (for `anonymous`, the top level's) and `reauth.on_body` (for `anonymous`, every user's).
 *
 * @example
 * denyRulesFor(plan, plan.access!, 'editor'); // { deny: [401, 403], loginRedirect: ['/login'], notMatch: 'Sign in' }
 */
export function denyRulesFor(plan: Plan, access: PlanAccess, user: string): DenyRules {
  const planUser = plan.users.find((u) => u.name === user);
  if (!planUser) {
    const loginRedirect = [...new Set(plan.users.flatMap((u) => (u.reauth ? u.reauth.onRedirect : [])))];
    const { notMatch, onBody } = access.anonymous;
    return { deny: access.deny, loginRedirect, ...(notMatch === undefined ? {} : { notMatch }), ...(onBody.length ? { onBody } : {}) };
  }
  return {
    deny: access.deny,
    loginRedirect: planUser.reauth ? planUser.reauth.onRedirect : [],
    ...(planUser.validation?.notMatch === undefined ? {} : { notMatch: planUser.validation.notMatch }),
    ...(planUser.reauth && planUser.reauth.onBody ? { onBody: planUser.reauth.onBody } : {}),
  };
}
