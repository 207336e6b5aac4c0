import type { ServerResponse } from 'node:http';
import { freePort } from '../ports.js';
import { readBody, sendJson, startHttpServer, type RunningServer } from './node-http.js';

/**
 * How the hostile provider's authorization endpoint (`/<mode>/auth`) behaves:
 * - `unreachable`: sets its session cookie and redirects, with the code and `state`, to a port where nothing listens;
 * - `silent`: never answers;
 * - `endless`: answers 200 and sends a page that never ends, as fast as it is read;
 * - `trickle`: answers 200 and sends a byte now and then, for ever;
 * - `script`: a page whose script asks the redirect URI, with `fetch` and an image, for a bogus
 *   code (and the page's `state`), then sends the browser on to the genuine redirect.
 */
export type HostileMode = 'unreachable' | 'silent' | 'endless' | 'trickle' | 'script';

/** The secrets the hostile provider hands out or is sent: none may be printed. */
export const HOSTILE_SECRETS = {
  code: 'hostile-code-8f3a91c2d4e5b6',
  session: 'provider-session-6b1d77e0a9c3',
  apiKey: 'api-key-secret-5521c0ffee77',
  password: 'alice-pass-9d2e41f0aa',
  clientSecret: 'client-secret-77aa11bb22cc',
  bogusCode: 'bogus-code-from-script-31337',
  goodCode: 'good-code-from-provider-4242',
} as const;

/** A running hostile provider. */
export interface HostileProvider extends RunningServer {
  /** A redirect URI where nothing listens (registered for the client). */
  redirectUri: string;
  /** The `state` values the authorization endpoint was sent, in order. */
  states: string[];
  /** The `state` values of the authorization requests of a config made with this `tag` (see `config`), in order. */
  statesOf(tag: string): string[];
  /** The codes the token endpoint was sent, in order. */
  codes: string[];
  /** Bytes the endless page has written so far. */
  endlessBytes: number;
  /**
   * The `oauth_authz_code_browser` config of user alice against `/<mode>/auth`; with a `tag`, its
   * authorization URL says it (`?run=TAG`), so that sign-ins made side by side are told apart.
   */
  config(mode: HostileMode, waitSeconds?: number, tag?: string): string;
}

/**
 * Starts an OAuth provider on 127.0.0.1 that misbehaves on purpose ({@link HostileMode}), with a
 * token endpoint that answers any code. Stop it with `close()`: connections it holds open end then.
 *
 * @example
 * const provider = await startHostileProvider();
 * const plan = planFromYaml(provider.config('silent'));
 */
export async function startHostileProvider(): Promise<HostileProvider> {
  const deadPort = await freePort();
  const held: ServerResponse[] = [];
  const state = {
    states: [] as string[],
    tagged: [] as Array<{ tag: string | null; state: string }>,
    codes: [] as string[],
    endlessBytes: 0,
  };
  const redirectUri = `http://127.0.0.1:${deadPort}/callback`;
  const server = await startHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://provider');
    const mode = url.pathname.split('/')[1];
    if (url.pathname === '/token' && req.method === 'POST') {
      void readBody(req).then((body) => {
        state.codes.push(new URLSearchParams(body).get('code') ?? '');
        sendJson(res, 200, { access_token: 'hostile-access-token-0c0ffee', token_type: 'Bearer', expires_in: 300 });
      });
      return;
    }
    if (url.pathname.endsWith('/auth')) {
      state.states.push(url.searchParams.get('state') ?? '');
      state.tagged.push({ tag: url.searchParams.get('run'), state: url.searchParams.get('state') ?? '' });
    }
    const st = encodeURIComponent(url.searchParams.get('state') ?? '');
    switch (`${mode} ${url.pathname.split('/')[2]}`) {
      case 'unreachable auth':
        res.writeHead(302, {
          'set-cookie': `provider_sid=${HOSTILE_SECRETS.session}; Path=/; HttpOnly`,
          location: `http://127.0.0.1:${deadPort}/continue?code=${HOSTILE_SECRETS.code}&state=${st}`,
        });
        return res.end();
      case 'silent auth':
        held.push(res);
        return;
      case 'endless auth': {
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `provider_sid=${HOSTILE_SECRETS.session}; Path=/` });
        const chunk = Buffer.alloc(64 * 1024, `<p>${HOSTILE_SECRETS.code}</p>`);
        const pump = (): void => {
          while (!res.destroyed) {
            state.endlessBytes += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
        };
        pump();
        return;
      }
      case 'trickle auth': {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('.')), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'script auth':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(`<!doctype html><title>Provider</title><p>Please wait</p><script>
const params = new URLSearchParams(location.search);
const forged = params.get('redirect_uri') + '?code=${HOSTILE_SECRETS.bogusCode}&state=' + encodeURIComponent(params.get('state'));
new Image().src = forged;
fetch(forged, { mode: 'no-cors' }).catch(() => undefined).finally(() => {
  setTimeout(() => { location.href = '/script/approve?state=' + encodeURIComponent(params.get('state')) + '&redirect_uri=' + encodeURIComponent(params.get('redirect_uri')); }, 300);
});
</script>`);
      case 'script approve':
        res.writeHead(302, { location: `${url.searchParams.get('redirect_uri')}?code=${HOSTILE_SECRETS.goodCode}&state=${st}` });
        return res.end();
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  const provider: HostileProvider = {
    ...server,
    redirectUri,
    get states() {
      return state.states;
    },
    statesOf: (tag) => state.tagged.filter((seen) => seen.tag === tag).map((seen) => seen.state),
    get codes() {
      return state.codes;
    },
    get endlessBytes() {
      return state.endlessBytes;
    },
    close: async () => {
      for (const res of held) res.destroy();
      await server.close();
    },
    config: (mode, waitSeconds = 2, tag) => `
presets:
  - type: oauth_authz_code_browser
    authorization_url: ${server.url}/${mode}/auth${tag === undefined ? '' : `?run=${encodeURIComponent(tag)}`}
    token_url: ${server.url}/token
    client_id: hostile-client
    client_secret: ${HOSTILE_SECRETS.clientSecret}
    redirect_uri: ${redirectUri}
    scopes: [profile]
    wait_for_seconds: ${waitSeconds}
    users:
      - username: alice
        password: ${HOSTILE_SECRETS.password}
        headers: { X-Api-Key: ${HOSTILE_SECRETS.apiKey} }
`,
  };
  return provider;
}
