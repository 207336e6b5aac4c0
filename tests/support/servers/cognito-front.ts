import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import type { CognitoAppClient } from './cognito.js';

/** An app client as the front knows it: credentials and allowed auth flows. */
export interface AppClientRecord extends CognitoAppClient {
  flows: string[];
}

const FLOW_PERMISSIONS: Record<string, string> = {
  USER_PASSWORD_AUTH: 'ALLOW_USER_PASSWORD_AUTH',
  REFRESH_TOKEN_AUTH: 'ALLOW_REFRESH_TOKEN_AUTH',
  REFRESH_TOKEN: 'ALLOW_REFRESH_TOKEN_AUTH',
};

/**
 * A request handler in front of cognito-local that does what Cognito does and cognito-local does
 * not, on InitiateAuth: the app client's auth flows are enforced (`InvalidParameterException`),
 * SECRET_HASH is required and checked for clients with a secret, refused for clients without (`NotAuthorizedException`): for USER_PASSWORD_AUTH against
 * USERNAME, for REFRESH_TOKEN_AUTH against the user the refresh token was issued to (as Cognito
 * does; USERNAME is then not needed); a wrong password is `NotAuthorizedException: Incorrect
 * username or password.`; AuthenticationResult gets `ExpiresIn` and `TokenType`. Everything else
 * is passed through.
 *
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/signing-up-users-in-your-app.html#cognito-user-pools-computing-secret-hash
 * @example
 * const handle = checkingFront('http://127.0.0.1:9229', clients);
 * createServer((req, res) => void handle(req, res));
 */
export function checkingFront(backend: string, clients: Map<string, AppClientRecord>) {
  const refreshOwners = new Map<string, string>();
  return (req: IncomingMessage, res: ServerResponse) => handle(backend, { clients, refreshOwners }, req, res);
}

interface FrontState {
  clients: Map<string, AppClientRecord>;
  /** Refresh token -> the username it was issued to. */
  refreshOwners: Map<string, string>;
}

async function handle(backend: string, state: FrontState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString();
  const target = String(req.headers['x-amz-target'] ?? '');
  const action = target.split('.').at(-1);
  const call = action === 'InitiateAuth' ? (JSON.parse(body || '{}') as InitiateAuthRequest) : undefined;
  if (call) {
    const refusal = checkInitiateAuth(call, state);
    if (refusal) return reply(res, 400, refusal);
  }
  const answer = await request(backend, {
    method: 'POST',
    headers: { 'content-type': String(req.headers['content-type'] ?? 'application/x-amz-json-1.1'), 'x-amz-target': target },
    body,
  });
  const text = await answer.body.text();
  if (call && answer.statusCode === 400 && text.includes('InvalidPasswordException')) {
    return reply(res, 400, { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
  }
  if (call && answer.statusCode === 200) {
    const json = JSON.parse(text) as { AuthenticationResult?: Record<string, unknown> };
    const refreshToken = json.AuthenticationResult?.RefreshToken;
    const username = call.AuthParameters?.USERNAME;
    if (typeof refreshToken === 'string' && username) state.refreshOwners.set(refreshToken, username);
    return reply(res, 200, withExpiry(json));
  }
  res.writeHead(answer.statusCode, { 'content-type': 'application/x-amz-json-1.1' }).end(text);
}

/** Cognito's AuthenticationResult carries `ExpiresIn` and `TokenType`; cognito-local's does not. */
function withExpiry(json: { AuthenticationResult?: Record<string, unknown> }): unknown {
  const result = json.AuthenticationResult;
  if (!result || typeof result.AccessToken !== 'string' || result.ExpiresIn !== undefined) return json;
  const claims = JSON.parse(Buffer.from(result.AccessToken.split('.')[1] ?? '', 'base64url').toString()) as { exp: number; iat: number };
  return { ...json, AuthenticationResult: { ...result, ExpiresIn: claims.exp - claims.iat, TokenType: 'Bearer' } };
}

interface InitiateAuthRequest {
  AuthFlow?: string;
  ClientId?: string;
  AuthParameters?: Record<string, string>;
}

function checkInitiateAuth(call: InitiateAuthRequest, state: FrontState): Record<string, string> | undefined {
  const client = state.clients.get(call.ClientId ?? '');
  const permission = FLOW_PERMISSIONS[call.AuthFlow ?? ''];
  if (!client || !permission) return undefined;
  if (!client.flows.includes(permission)) {
    return { __type: 'InvalidParameterException', message: `${call.AuthFlow} flow not enabled for this client` };
  }
  const params = call.AuthParameters ?? {};
  if (client.clientSecret === '') {
    // A public app client: Cognito refuses a SECRET_HASH it cannot have been computed for.
    return params.SECRET_HASH === undefined ? undefined : { __type: 'NotAuthorizedException', message: `Client ${client.clientId} has no secret, but a SECRET_HASH was received` };
  }
  if (params.SECRET_HASH === undefined) {
    return { __type: 'NotAuthorizedException', message: `Client ${client.clientId} is configured for secret but secret was not received` };
  }
  const owner = call.AuthFlow === 'USER_PASSWORD_AUTH' ? undefined : state.refreshOwners.get(params.REFRESH_TOKEN ?? '');
  const username = owner ?? params.USERNAME ?? '';
  const expected = createHmac('sha256', client.clientSecret).update(`${username}${client.clientId}`).digest();
  const given = Buffer.from(params.SECRET_HASH, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { __type: 'NotAuthorizedException', message: `Unable to verify secret hash for client ${client.clientId}` };
  }
  return undefined;
}

function reply(res: ServerResponse, status: number, json: unknown): void {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(json));
}
