import { createHmac } from 'node:crypto';

/**
 * The `SECRET_HASH` that AWS Cognito requires from app clients that have a secret:
 * `Base64(HMAC_SHA256(key = client secret, message = username + client id))`. All three inputs are
 * in the config, so the `pool_userpass` preset computes it at compile time. (The Python original
 * sent the raw client secret instead, which Cognito rejects.)
 *
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/signing-up-users-in-your-app.html#cognito-user-pools-computing-secret-hash
 * @example
 * cognitoSecretHash('alice', 'client123', 'secretXYZ'); // a 44-character Base64 string
 */
export function cognitoSecretHash(username: string, clientId: string, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(username + clientId).digest('base64');
}
