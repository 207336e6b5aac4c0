import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { MAX_BODY_BYTES } from './limits.js';
import { certificateConnector, type ClientCertificate } from './client-certificates.js';

/** What a connection needs besides the URL; requests that agree share a connection pool. */
export interface ConnectionOptions {
  insecure: boolean;
  proxy?: string;
  /** How long opening a connection may take (the request's own timeout). */
  connectTimeoutMs: number;
  /** mTLS: certificates presented to their origins only (users with `repeater_mtls`). */
  clientCertificates?: readonly ClientCertificate[];
}

/** Each certificate set gets its own pools: connections made with a certificate are never shared. */
const certificateSetIds = new WeakMap<readonly ClientCertificate[], number>();
let nextCertificateSetId = 1;

const pools = new Map<string, Dispatcher>();

/** The latest kind asked for and its dispatcher: sign-ins in a row nearly always ask for the same. */
let latest: { options: ConnectionOptions; dispatcher: Dispatcher } | undefined;

/**
 * The undici dispatcher for a kind of connection: an `Agent` that verifies certificates (or not,
 * for `insecure`), or a `ProxyAgent` that tunnels through `proxy`. One per kind for the process,
 * so sign-ins to the same server reuse keep-alive connections; idle sockets do not keep the
 * process alive.
 *
 * @example
 * const dispatcher = dispatcherFor({ insecure: false, proxy: 'http://127.0.0.1:3128', connectTimeoutMs: 30_000 });
 */
export function dispatcherFor(options: ConnectionOptions): Dispatcher {
  if (latest && sameKind(latest.options, options)) return latest.dispatcher;
  const certs = options.clientCertificates?.length ? options.clientCertificates : undefined;
  let certId = 0;
  if (certs) {
    certId = certificateSetIds.get(certs) ?? nextCertificateSetId++;
    certificateSetIds.set(certs, certId);
  }
  const key = `${options.insecure ? 1 : 0} ${options.connectTimeoutMs} ${options.proxy ?? ''} ${certId}`;
  let dispatcher = pools.get(key);
  if (!dispatcher) {
    const tls = { rejectUnauthorized: !options.insecure, timeout: options.connectTimeoutMs };
    const limits = { connectTimeout: options.connectTimeoutMs, maxResponseSize: MAX_BODY_BYTES };
    dispatcher = options.proxy
      ? new ProxyAgent({ uri: options.proxy, requestTls: { ...tls, ...proxiedCertificate(certs) }, proxyTls: tls, ...limits })
      : new Agent({ connect: certs ? certificateConnector(certs, tls) : tls, ...limits });
    pools.set(key, dispatcher);
  }
  latest = { options: { ...options }, dispatcher };
  return dispatcher;
}

function sameKind(a: ConnectionOptions, b: ConnectionOptions): boolean {
  return a.insecure === b.insecure && a.connectTimeoutMs === b.connectTimeoutMs && a.proxy === b.proxy && a.clientCertificates === b.clientCertificates;
}

/**
 * Closes every pooled connection (tests, benchmarks, and a CLI that wants to exit at once).
 *
 * @example
 * await closeDispatchers();
 */
export async function closeDispatchers(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  latest = undefined;
  await Promise.all(all.map((dispatcher) => dispatcher.close()));
}

/** Through a proxy undici takes one TLS setting for every origin: the first certificate's. */
function proxiedCertificate(certs: readonly ClientCertificate[] | undefined): Partial<ClientCertificate> {
  const first = certs?.[0];
  return first ? { cert: first.cert, key: first.key, pfx: first.pfx, passphrase: first.passphrase } : {};
}
