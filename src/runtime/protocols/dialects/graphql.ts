import { MultiAuthError, type AuthContext } from '../../../core/errors.js';
import type { ObservedResponse } from '../../http/observation.js';
import { cut, jsonObject } from './text.js';

/** Errors shown one by one; the rest are counted. */
const SHOWN_ERRORS = 3;

/**
 * The messages of a GraphQL response's non-empty `errors` array, one line (each cut short, with
 * its `extensions.code` and `path` when given); undefined when there are none.
 *
 * @see https://spec.graphql.org/October2021/#sec-Errors
 * @example
 * describeGraphqlErrors('{"data":{"login":null},"errors":[{"message":"Invalid password","extensions":{"code":"UNAUTHENTICATED"},"path":["login"]}]}');
 * // 'Invalid password [UNAUTHENTICATED] at login'
 */
export function describeGraphqlErrors(body: unknown): string | undefined {
  const errors = jsonObject(body)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const lines = errors.slice(0, SHOWN_ERRORS).map((error: unknown) => {
    const e = jsonObject(error) ?? {};
    const message = typeof e.message === 'string' ? cut(e.message) : cut(JSON.stringify(error) ?? 'error');
    const code = jsonObject(e.extensions)?.code;
    const path = Array.isArray(e.path) ? e.path.join('.') : undefined;
    return `${message}${typeof code === 'string' ? ` [${code}]` : ''}${path ? ` at ${path}` : ''}`;
  });
  const more = errors.length > SHOWN_ERRORS ? ` (and ${errors.length - SHOWN_ERRORS} more)` : '';
  return `${lines.join('; ')}${more}`;
}

/**
 * Fails a GraphQL sign-in whose JSON body has a non-empty `errors` array, even with HTTP 200
 * (GraphQL servers report a wrong password that way): `AUTH_PROTOCOL` (`AUTH_HTTP_STATUS` when the
 * status is 400 or more) with the server's messages.
 *
 * @see https://graphql.org/learn/serving-over-http/#response
 * @example
 * checkGraphqlResponse(response, { user: 'alice', step: 0, status: 200 }); // throws on {"errors":[...]}
 */
export function checkGraphqlResponse(response: ObservedResponse, context: AuthContext): void {
  const described = describeGraphqlErrors(response.body);
  if (described === undefined) return;
  throw new MultiAuthError(response.status >= 400 ? 'AUTH_HTTP_STATUS' : 'AUTH_PROTOCOL', `the GraphQL server answered with errors: ${described}`, {
    context,
    hint: 'Check the user\'s `variables` (the credentials sent) and the preset\'s `query` against the server\'s schema.',
  });
}
