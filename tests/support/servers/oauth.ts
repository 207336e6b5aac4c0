import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors } from 'oidc-provider';

/** An OAuth client registered on the {@link startOAuthServer} server. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

/** A running oidc-provider with the grants the OAuth presets use. */
export interface OAuthServer {
  /** The issuer, `http://127.0.0.1:PORT`. */
  url: string;
  /** RFC 6749 token endpoint. */
  tokenEndpoint: string;
  /** RFC 7009 token revocation (form `token`, `token_type_hint`, client authentication). */
  revocationEndpoint: string;
  /**
   * `GET` with `Authorization: Bearer <access token>`: 200 `{ client_id, sub?, scope?, kind }`
   * (`sub` is the user of a password grant; absent for client credentials), else (unknown or
   * expired token) 401 `{ error: 'invalid_token' }`. Tests prove with it which client or user the
   * server sees.
   */
  whoamiUrl: string;
  /**
   * `post` authenticates with client_secret_post, `basic` with client_secret_basic (RFC 6749 2.3.1);
   * `public` (with `authorizationCode` only) is a public client: no secret, PKCE required.
   */
  clients: { post: OAuthClient; basic: OAuthClient; public: OAuthClient };
  /** username -> password, for the password grant. */
  users: Record<string, string>;
  /** Scopes clients may ask for. */
  scopes: string[];
  /**
   * With `authorizationCode`: the redirect URI both clients registered, `${url}/cb`, which only
   * shows a page, so the code it receives stays unredeemed (a native client's callback).
   */
  redirectUri: string;
  /** A redirect URI every client also registered where nothing listens: it must be intercepted. */
  nowhereRedirectUri: string;
  stop(): Promise<void>;
}

/** Options of {@link startOAuthServer}. */
export interface OAuthServerOptions {
  /** Access token lifetime in seconds (default 3600); short for refresh tests. */
  accessTokenTtl?: number;
  /** Refresh token lifetime in seconds (default 86400). */
  refreshTokenTtl?: number;
  users?: Record<string, string>;
  /**
   * Also the authorization code grant (RFC 6749 4.1) through oidc-provider's own login and consent
   * pages (`devInteractions`: a login form whose `login` and `password` fields take any password
   * for a known user, then a Continue button).
   */
  authorizationCode?: boolean;
  /**
   * Every refresh consumes its refresh token and issues a new one; a token presented again is
   * refused (`invalid_grant`) and its grant revoked, as providers that rotate do.
   */
  rotateRefreshTokens?: boolean;
}

const SCOPES = ['openid', 'offline_access', 'api:read', 'api:write'];

/**
 * Starts oidc-provider in-process on a free port of 127.0.0.1 with the grants `client_credentials`,
 * `password` (not built into oidc-provider: registered here, checking a small user table) and
 * `refresh_token` (which works for the password grant's refresh tokens), two confidential clients
 * (client_secret_post and client_secret_basic), opaque access tokens, and a `whoami` route.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.3
 * @example
 * const oauth = await startOAuthServer({ accessTokenTtl: 2 });
 * // POST oauth.tokenEndpoint: grant_type=password&username=alice&password=...&client_id=...&client_secret=...
 * await oauth.stop();
 */
export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const users = { ...(options.users ?? { alice: 'alice-password', bob: 'bob password & more' }) };
  const clients = {
    post: { clientId: 'multiauth-post', clientSecret: randomBytes(16).toString('hex') },
    basic: { clientId: 'multiauth-basic', clientSecret: `s3cret:${randomBytes(8).toString('hex')}/+` },
    public: { clientId: 'multiauth-public', clientSecret: '' },
  };
  let provider: Provider | undefined;
  const server = createServer((req, res) => {
    if (!provider) return void res.writeHead(503).end();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/whoami') return void whoami(provider, req, res);
    if (path === '/cb') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Signed in</title><p>You may close this window.</p>');
    if (path === '/token' && req.method === 'POST') return void strictClientAuth(provider, clients, req, res);
    return provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const redirectUri = `${url}/cb`;
  // Nothing listens there (and the browser is never let through to check).
  const nowhereRedirectUri = 'http://127.0.0.1:65529/callback';
  const code = options.authorizationCode ? [redirectUri, nowhereRedirectUri] : undefined;
  provider = new Provider(url, {
    clients: [
      client(clients.post, 'client_secret_post', code),
      client(clients.basic, 'client_secret_basic', code),
      ...(code ? [client(clients.public, 'none', code)] : []),
    ],
    scopes: SCOPES,
    features: {
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      devInteractions: { enabled: options.authorizationCode === true },
    },
    findAccount: (_ctx: unknown, sub: string) => (sub in users ? { accountId: sub, claims: () => ({ sub }) } : undefined),
    adapter: memoryAdapter(),
    jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    ...(options.rotateRefreshTokens ? { rotateRefreshToken: true } : {}),
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      ClientCredentials: options.accessTokenTtl ?? 3600,
      RefreshToken: options.refreshTokenTtl ?? 86_400,
      Grant: options.refreshTokenTtl ?? 86_400,
    },
  });
  provider.registerGrantType('password', passwordGrant(provider, users), ['username', 'password', 'scope']);

  return {
    url,
    tokenEndpoint: `${url}/token`,
    revocationEndpoint: `${url}/token/revocation`,
    whoamiUrl: `${url}/whoami`,
    clients,
    users,
    scopes: SCOPES,
    redirectUri,
    nowhereRedirectUri,
    stop: () => closeServer(server),
  };
}

function client({ clientId, clientSecret }: OAuthClient, method: string, redirectUris: string[] | undefined) {
  const confidential = method !== 'none';
  return {
    client_id: clientId,
    ...(confidential ? { client_secret: clientSecret } : {}),
    token_endpoint_auth_method: method,
    grant_types: [...(confidential ? ['client_credentials', 'password'] : []), 'refresh_token', ...(redirectUris ? ['authorization_code'] : [])],
    response_types: redirectUris ? ['code'] : [],
    redirect_uris: redirectUris ?? [],
    scope: SCOPES.join(' '),
  };
}

/** The resource owner password credentials grant (RFC 6749 section 4.3), for test users only. */
function passwordGrant(provider: Provider, users: Record<string, string>) {
  return async (ctx: Provider.KoaContextWithOIDC) => {
    const params = ctx.oidc.params as Record<string, string | undefined>;
    const { username, password } = params;
    if (!username || password === undefined) throw new errors.InvalidRequest('username and password are required');
    if (users[username] !== password) throw new errors.InvalidGrant('invalid username or password');
    const client = ctx.oidc.client!;
    const scopes = (params.scope ?? '').split(' ').filter(Boolean);
    const unknown = scopes.filter((s) => !SCOPES.includes(s));
    if (unknown.length) throw new errors.InvalidScope('requested scope is not allowed', unknown.join(' '));
    const scope = scopes.join(' ') || undefined;

    const grant = new provider.Grant({ accountId: username, clientId: client.clientId });
    if (scope) grant.addOIDCScope(scope);
    const grantId = await grant.save();
    const at = new provider.AccessToken({ accountId: username, client, grantId, gty: 'password', scope });
    const accessToken = await at.save();
    const rt = new provider.RefreshToken({ accountId: username, client, grantId, gty: 'password', scope, rotations: 0 });
    const refreshToken = await rt.save();
    ctx.body = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: at.expiration,
      refresh_token: refreshToken,
      ...(scope && { scope }),
    };
  };
}

/**
 * oidc-provider accepts client_secret_post and client_secret_basic alike from any client; this
 * server holds each client to its registered method (as many real servers do), so a test proves
 * which one a client used. The body read here is handed on as `req.body`, which oidc-provider reads.
 */
async function strictClientAuth(
  provider: Provider,
  clients: { post: OAuthClient; basic: OAuthClient },
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString();
  const form = new URLSearchParams(body);
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const basicId = basic ? decodeURIComponent(Buffer.from(basic, 'base64').toString().split(':')[0] ?? '') : undefined;
  const mismatch =
    (basicId === clients.post.clientId && 'client_secret_post') ||
    (form.get('client_id') === clients.basic.clientId && form.has('client_secret') && 'client_secret_basic');
  if (mismatch) {
    const description = `client authentication failed: this client must use ${mismatch}`;
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client', error_description: description }));
    return;
  }
  Object.assign(req, { body });
  provider.callback()(req, res);
}

async function whoami(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const stored = token
    ? ((await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token)))
    : undefined;
  const found = stored && !stored.isExpired ? stored : undefined;
  const body = found
    ? {
        client_id: found.clientId,
        ...('accountId' in found && found.accountId ? { sub: found.accountId } : {}),
        ...(found.scope ? { scope: found.scope } : {}),
        kind: found.kind,
      }
    : { error: 'invalid_token' };
  res.writeHead(found ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * oidc-provider's storage, in memory, per server (its built-in one warns on every start). Expiry
 * is checked by oidc-provider itself from each payload's `exp`.
 */
function memoryAdapter() {
  const store = new Map<string, Record<string, unknown>>();
  const key = (model: string, id: string) => `${model}:${id}`;
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: Record<string, unknown>): Promise<void> {
      store.set(key(this.model, id), payload);
    }
    async find(id: string) {
      return store.get(key(this.model, id));
    }
    async findByUid(uid: string) {
      return [...store.entries()].find(([k, p]) => k.startsWith(`${this.model}:`) && p.uid === uid)?.[1];
    }
    async findByUserCode(userCode: string) {
      return [...store.entries()].find(([k, p]) => k.startsWith(`${this.model}:`) && p.userCode === userCode)?.[1];
    }
    async consume(id: string): Promise<void> {
      const payload = store.get(key(this.model, id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      store.delete(key(this.model, id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [k, p] of store) if (p.grantId === grantId) store.delete(k);
    }
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
