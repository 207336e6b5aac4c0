import { createServer, type Server } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { checkingFront, type AppClientRecord } from './cognito-front.js';
import { makeTempDir, removeDir, startDaemon, startOnFreePort, type Daemon } from './process.js';

/** The app client of the {@link startCognito} user pool. */
export interface CognitoAppClient {
  clientId: string;
  /** '' for a client without a secret. */
  clientSecret: string;
}

/** A running cognito-local behind a front that checks what real Cognito checks. */
export interface CognitoServer {
  /** The endpoint to send `X-Amz-Target` JSON calls to (the checking front). */
  url: string;
  userPoolId: string;
  /** Has a secret; allows USER_PASSWORD_AUTH and REFRESH_TOKEN_AUTH. */
  client: CognitoAppClient;
  /** Has a secret; allows only SRP and refresh (USER_PASSWORD_AUTH is refused). */
  srpOnlyClient: CognitoAppClient;
  /** No secret (`clientSecret` is ''); allows USER_PASSWORD_AUTH and REFRESH_TOKEN_AUTH. */
  publicClient: CognitoAppClient;
  /** username -> permanent password (status CONFIRMED). */
  users: Record<string, string>;
  /** A user left in FORCE_CHANGE_PASSWORD: signing in answers the NEW_PASSWORD_REQUIRED challenge. */
  pendingUser: { username: string; password: string };
  stop(): Promise<void>;
}

/** Options of {@link startCognito}. */
export interface CognitoOptions {
  users?: Record<string, string>;
}

/** A JSON call's answer. */
export interface CognitoReply {
  status: number;
  json: Record<string, unknown>;
}

/**
 * Calls one action of the Cognito Identity Provider JSON API (`X-Amz-Target`), plain undici.
 *
 * @example
 * await cognitoCall(url, 'GetUser', { AccessToken }); // { status: 200, json: { Username: 'alice', ... } }
 */
export async function cognitoCall(url: string, action: string, body: unknown): Promise<CognitoReply> {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * Starts cognito-local (as a child process, with a temp working dir whose `.cognito/config.json`
 * makes plain usernames work), creates a user pool, an app client with a secret and the
 * USER_PASSWORD_AUTH and REFRESH_TOKEN_AUTH flows, users with permanent passwords, and one user
 * left in FORCE_CHANGE_PASSWORD.
 *
 * cognito-local checks neither `SECRET_HASH` nor the client's auth flows, and answers a wrong
 * password with `InvalidPasswordException`; so calls go through a front that does what Cognito
 * does (see {@link checkingFront}): SECRET_HASH and auth flows checked, Cognito's own error for a
 * wrong password, `ExpiresIn` and `TokenType` in AuthenticationResult.
 *
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/signing-up-users-in-your-app.html#cognito-user-pools-computing-secret-hash
 * @example
 * const cognito = await startCognito();
 * await cognitoCall(cognito.url, 'InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId, AuthParameters });
 * await cognito.stop();
 */
export async function startCognito(options: CognitoOptions = {}): Promise<CognitoServer> {
  const users = { ...(options.users ?? { alice: 'Alice-Passw0rd!', bob: 'Bob-Passw0rd?' }) };
  const pendingUser = { username: 'newbie', password: 'Temp-Passw0rd!' };
  const dir = await makeTempDir('cognito');
  let daemon: Daemon | undefined;
  let front: Server | undefined;
  try {
    await mkdir(join(dir, '.cognito'));
    await writeFile(join(dir, '.cognito', 'config.json'), JSON.stringify({ UserPoolDefaults: { UsernameAttributes: [] } }));
    const start = join(dirname(createRequire(import.meta.url).resolve('cognito-local/package.json')), 'lib', 'bin', 'start.js');
    const started = await startOnFreePort(async (port) => ({
      port,
      daemon: await startDaemon({
        name: 'cognito-local', command: process.execPath, args: [start], port, cwd: dir,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      }),
    }));
    daemon = started.daemon;
    const backend = `http://127.0.0.1:${started.port}`;

    const call = async (action: string, body: unknown) => {
      const reply = await cognitoCall(backend, action, body);
      if (reply.status !== 200) throw new Error(`cognito-local ${action}: ${reply.status} ${JSON.stringify(reply.json)}`);
      return reply.json;
    };
    const pool = (await call('CreateUserPool', { PoolName: 'multiauth' })).UserPool as { Id: string };
    const flowsOf = new Map<string, AppClientRecord>();
    const appClient = async (name: string, flows: string[], secret = true): Promise<CognitoAppClient> => {
      const created = (await call('CreateUserPoolClient', {
        UserPoolId: pool.Id, ClientName: name, GenerateSecret: secret, ExplicitAuthFlows: flows,
      })).UserPoolClient as { ClientId: string; ClientSecret?: string };
      const record = { clientId: created.ClientId, clientSecret: created.ClientSecret ?? '' };
      flowsOf.set(record.clientId, { ...record, flows });
      return record;
    };
    const client = await appClient('multiauth-tests', ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
    const srpOnlyClient = await appClient('multiauth-srp-only', ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
    const publicClient = await appClient('multiauth-public', ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'], false);
    for (const [username, password] of Object.entries(users)) {
      await call('AdminCreateUser', { UserPoolId: pool.Id, Username: username, TemporaryPassword: `Tmp-${password}`, MessageAction: 'SUPPRESS' });
      await call('AdminSetUserPassword', { UserPoolId: pool.Id, Username: username, Password: password, Permanent: true });
    }
    await call('AdminCreateUser', {
      UserPoolId: pool.Id, Username: pendingUser.username, TemporaryPassword: pendingUser.password, MessageAction: 'SUPPRESS',
    });

    const handle = checkingFront(backend, flowsOf);
    const frontServer = createServer((req, res) => void handle(req, res));
    front = frontServer;
    await new Promise<void>((resolve) => frontServer.listen(0, '127.0.0.1', resolve));
    const stopAll = async () => {
      frontServer.closeAllConnections();
      await new Promise<void>((resolve) => frontServer.close(() => resolve()));
      await daemon?.stop();
      await removeDir(dir);
    };
    return {
      url: `http://127.0.0.1:${(frontServer.address() as AddressInfo).port}`,
      userPoolId: pool.Id,
      client,
      srpOnlyClient,
      publicClient,
      users,
      pendingUser,
      stop: stopAll,
    };
  } catch (error) {
    front?.close();
    await daemon?.stop();
    await removeDir(dir);
    throw error;
  }
}
