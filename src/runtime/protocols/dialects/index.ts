import type { AuthContext } from '../../../core/errors.js';
import type { ResponseDialect } from '../../../compile/index.js';
import type { Observation, ObservedResponse } from '../../http/observation.js';
import { checkCognitoResponse, describeCognitoError } from './cognito.js';
import { checkGraphqlResponse, describeGraphqlErrors } from './graphql.js';
import { checkOAuthResponse, describeOAuthError } from './oauth.js';
import { exchangeContext } from './text.js';

export { checkCognitoResponse, describeCognitoError } from './cognito.js';
export { checkGraphqlResponse, describeGraphqlErrors } from './graphql.js';
export { checkOAuthResponse, describeOAuthError } from './oauth.js';

/** One dialect: how to check a response, and how to say what its error body means. */
interface Dialect {
  check: (response: ObservedResponse, context: AuthContext) => void;
  describe: (body: unknown) => string | undefined;
}

const DIALECTS: Record<ResponseDialect, Dialect> = {
  graphql: { check: checkGraphqlResponse, describe: describeGraphqlErrors },
  oauth: { check: checkOAuthResponse, describe: describeOAuthError },
  cognito: { check: checkCognitoResponse, describe: describeCognitoError },
};

/**
 * Applies the protocol rules of `dialect` to the final response of a step, and throws a
 * `MultiAuthError` when the protocol says the sign-in failed: a GraphQL `errors` array (even with
 * HTTP 200), an RFC 6749 error body, a Cognito `__type` error or challenge. The error names the
 * server's own words (cut short; the caller redacts) and what to check. A response the dialect
 * finds nothing wrong with passes, whatever its status: the HTTP status check is the caller's.
 * Run it before the generic status check, so a protocol error body gives the protocol's message.
 *
 * @example
 * checkDialectResponse('graphql', observation, { user: 'alice', procedure: 'graphql-users', step: 0 });
 * // throws AUTH_PROTOCOL 'the GraphQL server answered with errors: Invalid password [UNAUTHENTICATED] at login'
 */
export function checkDialectResponse(dialect: ResponseDialect, observation: Observation, where: AuthContext): void {
  const response = observation.responses.at(-1);
  if (!response) return;
  DIALECTS[dialect].check(response, exchangeContext(observation, where));
}

/**
 * What an error body means in `dialect`'s terms, in one line (for the status error of a step);
 * undefined when the body is not that protocol's error.
 *
 * @example
 * describeDialectError('oauth', '{"error":"invalid_client"}'); // 'invalid_client'
 */
export function describeDialectError(dialect: ResponseDialect, body: unknown): string | undefined {
  return DIALECTS[dialect].describe(body);
}
