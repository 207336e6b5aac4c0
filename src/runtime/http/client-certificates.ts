import { readFileSync } from 'node:fs';
import { buildConnector } from 'undici';
import { MultiAuthError } from '../../core/errors.js';
import type { MtlsCertificate } from '../../config/index.js';

/** A client certificate with its files read, for one origin (`scheme://host:port`). */
export interface ClientCertificate {
  origin: string;
  cert?: Buffer;
  key?: Buffer;
  pfx?: Buffer;
  passphrase?: string;
}

const files = new Map<string, Buffer>();

function read(path: string | undefined, origin: string): Buffer | undefined {
  if (path === undefined) return undefined;
  let content = files.get(path);
  if (!content) {
    try {
      content = readFileSync(path);
    } catch (cause) {
      throw new MultiAuthError('CONFIG_INVALID', `cannot read the mTLS file ${path} (for ${origin})`, {
        cause,
        hint: 'mtls paths are relative to the config file; check the path and that the file is readable.',
      });
    }
    files.set(path, content);
  }
  return content;
}

/**
 * Reads the config's `mtls` entries (paths already absolute) once per process.
 *
 * @example
 * loadClientCertificates([{ origin: 'https://api.test', certPath: '/abs/c.crt', keyPath: '/abs/c.key' }]);
 */
export function loadClientCertificates(entries: readonly MtlsCertificate[]): ClientCertificate[] {
  return entries.map((e) => ({
    origin: new URL(e.origin).origin,
    cert: read(e.certPath, e.origin),
    key: read(e.keyPath, e.origin),
    pfx: read(e.pfxPath, e.origin),
    ...(e.passphrase !== undefined && { passphrase: e.passphrase }),
  }));
}

/**
 * An undici connector that presents, for each connection, the client certificate of the
 * connection's origin (and none elsewhere): Playwright's `clientCertificates` semantics, so a
 * redirect to another server never receives the certificate.
 */
export function certificateConnector(certificates: readonly ClientCertificate[], tls: buildConnector.BuildOptions): buildConnector.connector {
  const plain = buildConnector(tls);
  const byOrigin = new Map(certificates.map((c) => [c.origin, buildConnector({ ...tls, cert: c.cert, key: c.key, pfx: c.pfx, passphrase: c.passphrase })]));
  return (options, callback) => {
    const port = options.port || (options.protocol === 'https:' ? '443' : '80');
    const origin = new URL(`${options.protocol}//${options.hostname}:${port}`).origin;
    (byOrigin.get(origin) ?? plain)(options, callback);
  };
}

const perPlan = new WeakMap<object, ClientCertificate[]>();

/**
 * The plan's certificates, read once per plan and kept as one array, so every sign-in of the plan
 * shares one connection pool.
 *
 * @example
 * const certs = user.mtls ? planCertificates(plan) : undefined;
 */
export function planCertificates(plan: { mtls: readonly MtlsCertificate[] }): ClientCertificate[] {
  let certs = perPlan.get(plan);
  if (!certs) {
    certs = loadClientCertificates(plan.mtls);
    perPlan.set(plan, certs);
  }
  return certs;
}
