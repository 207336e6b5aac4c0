import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP port that was free on 127.0.0.1 a moment ago: for a child server that needs a number
 * before it starts, or for a connection that must be refused (nothing listens there).
 *
 * @example
 * const port = await freePort(); // 41873
 * const refused = `http://127.0.0.1:${await freePort()}/login`;
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
