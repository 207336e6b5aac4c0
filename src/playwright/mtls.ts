import type { WorkerAuth } from './worker-auth.js';

/** Playwright's `clientCertificates` entries. */
export type ClientCertificate = { origin: string; certPath?: string; keyPath?: string; pfxPath?: string; passphrase?: string };

/**
 * The config's `mtls` certificates for a user with `repeater_mtls: true` (paths already absolute:
 * see `resolvePlanPaths`), or undefined for other users.
 *
 * @example
 * await clientCertificatesFor(auth, 'alice'); // [{ origin: 'https://api.test', certPath: '/abs/alice.crt', keyPath: '/abs/alice.key' }]
 */
export async function clientCertificatesFor(auth: WorkerAuth, user: string): Promise<ClientCertificate[] | undefined> {
  return auth.mtlsCertificates(user);
}
