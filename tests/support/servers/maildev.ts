import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../ports.js';
import { ROOT } from '../root.js';
import { startDaemon, type Daemon } from './process.js';

/** A running maildev (the npm package), started by {@link startMaildev}. */
export interface Maildev {
  /** Its web address (`http://127.0.0.1:PORT`), what `mail.maildev` is set to; its REST API answers under it. */
  url: string;
  /** Its SMTP port on 127.0.0.1. */
  smtpPort: number;
  stop(): Promise<void>;
}

/**
 * Where maildev's command is: the repository's devDependency (`node_modules/maildev`), else the
 * folder `MULTIAUTH_MAILDEV_DIR` names (where `npm i maildev` ran). Never skipped: without it the
 * test fails and says how to get it.
 */
function maildevBin(): string {
  const dirs = [join(ROOT, 'node_modules'), ...(process.env.MULTIAUTH_MAILDEV_DIR ? [join(process.env.MULTIAUTH_MAILDEV_DIR, 'node_modules')] : [])];
  for (const dir of dirs) {
    // maildev 3 (dist/bin/maildev.js), maildev 2 (bin/maildev).
    const bin = [join(dir, 'maildev', 'dist', 'bin', 'maildev.js'), join(dir, 'maildev', 'bin', 'maildev')].find(existsSync);
    if (bin) return bin;
  }
  throw new Error(`maildev is not installed: it is a devDependency of the repository (npm ci installs it), or set MULTIAUTH_MAILDEV_DIR to a folder where "npm i maildev" ran (looked in ${dirs.join(', ')})`);
}

/**
 * Starts the real maildev from npm on 127.0.0.1 (SMTP and web on free ports, in memory), for the
 * maildev reader's tests, and resolves once both ports accept connections.
 *
 * @example
 * const maildev = await startMaildev();
 * // mail: { maildev: maildev.url }, the application sends to 127.0.0.1:maildev.smtpPort
 * await maildev.stop();
 */
export async function startMaildev(): Promise<Maildev> {
  const bin = maildevBin();
  const [smtpPort, webPort] = [await freePort(), await freePort()];
  const daemon: Daemon = await startDaemon({
    name: 'maildev',
    command: process.execPath,
    args: [bin, '--smtp', String(smtpPort), '--web', String(webPort), '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '--silent'],
    port: webPort,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    timeoutMs: 60_000,
  });
  try {
    await accepting(smtpPort);
  } catch (error) {
    await daemon.stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${webPort}`, smtpPort, stop: () => daemon.stop() };
}

async function accepting(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`maildev's SMTP port ${port} accepts no connection after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
