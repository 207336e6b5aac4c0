import { MultiAuthError } from '../../core/errors.js';
import { MAX_BODY_BYTES } from './limits.js';

/** Node and undici error codes that mean the certificate could not be trusted. */
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH/;

/** What to do about a connection failure, by the cause's code. */
const NETWORK_HINTS: Record<string, string> = {
  ECONNREFUSED: 'Nothing is listening there: check the URL and port, and that the server is running.',
  ENOTFOUND: 'The host name does not resolve: check the URL (and the proxy, if one is set).',
  EAI_AGAIN: 'The host name could not be resolved right now: check DNS and the URL.',
  ECONNRESET: 'The server closed the connection: check that the URL speaks HTTP(S) on that port.',
  EHOSTUNREACH: 'The host cannot be reached: check the URL and the network (or set `proxy`).',
  ENETUNREACH: 'The network is unreachable: check the connection (or set `proxy`).',
  UND_ERR_SOCKET: 'The connection failed mid-exchange: check that the URL speaks HTTP(S) on that port.',
};

/** Where the failing exchange was going, for the error's context. */
export interface ExchangeTarget {
  method: string;
  url: string;
}

/**
 * Turns whatever undici or Node threw while sending a request into a {@link MultiAuthError}:
 * `AUTH_TIMEOUT` when the time ran out, `AUTH_NETWORK` with the cause's code (`ECONNREFUSED`, ...)
 * and a hint otherwise; a TLS failure hints at `insecure`. The message never holds a header or body.
 *
 * @example
 * networkError(err, { method: 'POST', url: 'https://a.test/login' }, { timedOut: false, timeoutMs: 30000 });
 */
export function networkError(
  cause: unknown,
  target: ExchangeTarget,
  state: { timedOut: boolean; timeoutMs: number; proxy?: string },
): MultiAuthError {
  if (cause instanceof MultiAuthError) return cause;
  const context = { method: target.method, url: target.url };
  const code = causeCode(cause);
  if (state.timedOut || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new MultiAuthError('AUTH_TIMEOUT', `no answer within ${formatSeconds(state.timeoutMs)}`, {
      context,
      cause,
      hint: 'Check that the server is up and reachable, or raise the operation\'s `timeout` (seconds).',
    });
  }
  if (code && TLS_CODES.test(code)) {
    return new MultiAuthError('AUTH_NETWORK', `TLS certificate not trusted (${code})`, {
      context,
      cause,
      hint: 'Use a certificate the system trusts (NODE_EXTRA_CA_CERTS=ca.pem), or set `insecure: true` on the operation for a test server.',
    });
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new MultiAuthError('AUTH_NETWORK', `the response body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB`, {
      context,
      cause,
      hint: 'Point the operation at the endpoint that returns the token, not at a page or a download.',
    });
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') {
    return new MultiAuthError('AUTH_NETWORK', 'the response headers are larger than this client accepts', {
      context,
      cause,
      hint: 'The server (or a proxy before it) sent oversized headers, often too many or too large cookies: check what it sets for this request.',
    });
  }
  const text = describe(cause);
  const proxyStatus = /Proxy response \((\d{3})\)/.exec(text)?.[1];
  if (state.proxy && proxyStatus) {
    return new MultiAuthError('AUTH_NETWORK', `the proxy ${safeProxy(state.proxy)} answered ${proxyStatus} to the tunnel request`, {
      context,
      cause,
      hint:
        proxyStatus === '407'
          ? 'The proxy wants credentials: write them in the proxy URL (http://user:password@host:port).'
          : 'Check the proxy URL and that the proxy allows connections to this host.',
    });
  }
  const via = state.proxy ? ` via proxy ${safeProxy(state.proxy)}` : '';
  return new MultiAuthError('AUTH_NETWORK', `request failed${via}: ${code ?? text}`, {
    context,
    cause,
    hint:
      (via ? `Check that the proxy is running and its URL is right (${safeProxy(state.proxy ?? '')}). ` : '') +
      ((code && NETWORK_HINTS[code]) ?? 'Check the URL and that the server is reachable.'),
  });
}

/**
 * The most specific `code` on the error or its causes (undici wraps Node's errors).
 *
 * @example
 * causeCode(Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET', cause: { code: 'ECONNRESET' } })); // 'ECONNRESET'
 */
export function causeCode(error: unknown): string | undefined {
  let found: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (found === undefined || found.startsWith('UND_ERR'))) found = code;
    current = current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : (current as { cause?: unknown }).cause;
  }
  return found;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** A proxy URL without its credentials. */
function safeProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    url.username = '';
    url.password = '';
    return url.origin;
  } catch {
    return '(invalid proxy URL)';
  }
}
