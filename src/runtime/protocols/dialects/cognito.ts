import { MultiAuthError, type AuthContext } from '../../../core/errors.js';
import type { ObservedResponse } from '../../http/observation.js';
import { cut, jsonObject } from './text.js';

const MFA_HINT = 'Turn MFA off for test users (user pool MFA "optional", none set up for the user), or sign them in with a browser procedure.';
const SRP_HINT = 'Enable ALLOW_USER_PASSWORD_AUTH in the app client\'s authentication flows.';

/** What to do about each challenge InitiateAuth may answer instead of tokens. */
const CHALLENGE_HINTS: Record<string, string> = {
  NEW_PASSWORD_REQUIRED:
    'Give the test user a permanent password: aws cognito-idp admin-set-user-password --user-pool-id <pool> --username <user> --password <password> --permanent',
  SMS_MFA: MFA_HINT,
  SOFTWARE_TOKEN_MFA: MFA_HINT,
  EMAIL_OTP: MFA_HINT,
  SELECT_MFA_TYPE: MFA_HINT,
  MFA_SETUP: MFA_HINT,
  PASSWORD_VERIFIER: SRP_HINT,
  DEVICE_SRP_AUTH: 'Turn off device tracking ("remember devices") for the user pool, or for test users.',
  DEVICE_PASSWORD_VERIFIER: 'Turn off device tracking ("remember devices") for the user pool, or for test users.',
  CUSTOM_CHALLENGE: 'A custom auth challenge (Lambda) asks this user for more: turn it off for test users, or use a browser procedure.',
};

/** What to check for each Cognito error type. */
function errorHint(type: string, message: string): string {
  if (type === 'NotAuthorizedException' && /secret/i.test(message)) {
    return 'Check the preset\'s client_secret: SECRET_HASH is Base64(HMAC_SHA256(client_secret, username + client_id)).';
  }
  if (type === 'InvalidParameterException' && /flow.*not enabled/i.test(message)) return SRP_HINT;
  const hints: Record<string, string> = {
    NotAuthorizedException: 'Check the user\'s username and password, and that the user is enabled.',
    UserNotFoundException: 'Check the username: this user pool has no such user (or client_id belongs to another pool).',
    UserNotConfirmedException: 'Confirm the test user: aws cognito-idp admin-confirm-sign-up --user-pool-id <pool> --username <user>',
    PasswordResetRequiredException: CHALLENGE_HINTS.NEW_PASSWORD_REQUIRED as string,
    ResourceNotFoundException: 'Check client_id and region (or endpoint): Cognito does not know this app client there.',
    InvalidParameterException: 'Check the preset\'s client_id and region, and the user\'s username and password.',
    TooManyRequestsException: 'Cognito throttles sign-ins: sign in less often (sessions are cached) or wait.',
  };
  return hints[type] ?? 'Check the preset\'s client_id, client_secret and region, and the user\'s credentials.';
}

/**
 * A Cognito (AWS JSON protocol) error in one line, `Type: message`; undefined when the body has
 * no `__type`. A namespaced type (`com.amazonaws...#NotAuthorizedException`) is shortened.
 *
 * @see https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html#API_InitiateAuth_Errors
 * @example
 * describeCognitoError('{"__type":"NotAuthorizedException","message":"Incorrect username or password."}');
 * // 'NotAuthorizedException: Incorrect username or password.'
 */
export function describeCognitoError(body: unknown): string | undefined {
  const error = cognitoError(body);
  return error && `${error.type}${error.message ? `: ${cut(error.message)}` : ''}`;
}

/**
 * Fails a Cognito InitiateAuth response that is not tokens: a `__type` error (`AUTH_HTTP_STATUS`
 * for a status of 400 or more, else `AUTH_PROTOCOL`) with the server's message, or a 200 that asks
 * for a challenge (`NEW_PASSWORD_REQUIRED`, `SMS_MFA`, `SOFTWARE_TOKEN_MFA`, ...): `AUTH_PROTOCOL`
 * "challenge X is not supported yet", with what to change for test users.
 *
 * @see https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html
 * @example
 * checkCognitoResponse(response, { user: 'alice', step: 0, status: 200 }); // throws on {"ChallengeName":"SMS_MFA",...}
 */
export function checkCognitoResponse(response: ObservedResponse, context: AuthContext): void {
  const error = cognitoError(response.body, response.headers.find(([n]) => n.toLowerCase() === 'x-amzn-errortype')?.[1]);
  if (error) {
    const text = `${error.type}${error.message ? `: ${cut(error.message)}` : ''}`;
    throw new MultiAuthError(response.status >= 400 ? 'AUTH_HTTP_STATUS' : 'AUTH_PROTOCOL', `Cognito refused the sign-in: ${text}`, {
      context,
      hint: errorHint(error.type, error.message),
    });
  }
  const challenge = jsonObject(response.body)?.ChallengeName;
  if (response.status < 400 && typeof challenge === 'string' && challenge) {
    throw new MultiAuthError('AUTH_PROTOCOL', `challenge ${cut(challenge, 60)} is not supported yet (Cognito answered it instead of tokens)`, {
      context,
      hint: CHALLENGE_HINTS[challenge] ?? 'Configure test users so that USER_PASSWORD_AUTH answers tokens directly (no challenge).',
    });
  }
}

function cognitoError(body: unknown, headerType?: string): { type: string; message: string } | undefined {
  const json = jsonObject(body) ?? {};
  const raw = typeof json.__type === 'string' && json.__type ? json.__type : headerType;
  if (!raw) return undefined;
  const type = cut(raw.split('#').at(-1)?.split(':')[0] ?? raw, 100);
  const message = [json.message, json.Message].find((m): m is string => typeof m === 'string') ?? '';
  return { type, message };
}
