import { execFileSync } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.js';
import { makeTempDir, removeDir, startDaemon, startOnFreePort } from './process.js';

/** A running Ghost 5 (the npm package, installed once per machine by scripts/real-apps/install-ghost.sh). */
export interface GhostServer {
  /** `http://127.0.0.1:PORT`: the site, its members API (`/members/api/`) and its admin (`/ghost/`). */
  url: string;
  /** The staff owner made by the setup (`owner@demo.test`), who signs in with an emailed code. */
  owner: { email: string; password: string };
  stop(): Promise<void>;
}

/** The lane's only install step that takes minutes: done by `npm run test:real-apps` before the run. */
const INSTALL_SCRIPT = join(ROOT, 'scripts', 'real-apps', 'install-ghost.sh');

/**
 * The installed Ghost's folder (`app/` inside), from the install script, which returns at once
 * when it is installed and otherwise installs it (15 to 35 minutes).
 */
function ghostApp(): string {
  const dir = execFileSync('bash', [INSTALL_SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').at(-1) ?? '';
  const app = join(dir, 'app');
  if (!existsSync(join(app, 'index.js'))) throw new Error(`Ghost is not installed in ${dir}: run bash ${INSTALL_SCRIPT}`);
  return app;
}

/** Answers of Ghost's APIs that a test reads. */
async function call(url: string, init: RequestInit & { origin: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  // Ghost's admin API refuses a state-changing request without an Origin of the site.
  headers.set('origin', init.origin);
  if (init.body) headers.set('content-type', 'application/json');
  return fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
}

/**
 * Starts Ghost on a free port of 127.0.0.1 with a fresh SQLite database (production mode, as
 * ghost-cli runs it), mailing through SMTP to 127.0.0.1:`smtpPort`, staff device verification on
 * (a new device's sign-in answers 403 `2FA_NEW_DEVICE_DETECTED` and mails a code), and makes its
 * owner through the setup API, signed in once as the setup wizard does (Ghost mails no code for a
 * user's first sign-in). Resolves once the admin API answers.
 *
 * @example
 * const ghost = await startGhost({ smtpPort: sink.port });
 * // ghost.owner signs in at `${ghost.url}/ghost/api/admin/session/`
 * await ghost.stop();
 */
export async function startGhost(options: { smtpPort: number }): Promise<GhostServer> {
  const app = ghostApp();
  const content = await makeTempDir('ghost');
  const owner = { email: 'owner@demo.test', password: 'Gh0st-owner-pass-7c1e' };
  try {
    for (const sub of ['data', 'logs', 'images', 'settings', 'themes', 'adapters', 'public']) await mkdir(join(content, sub), { recursive: true });
    // `source` is the default theme: without it the site's pages answer 500.
    for (const theme of ['casper', 'source']) await cp(join(app, 'content', 'themes', theme), join(content, 'themes', theme), { recursive: true });
    const daemon = await startOnFreePort(async (port) => {
      const d = await startDaemon({
        name: 'ghost',
        command: process.execPath,
        args: ['index.js'],
        port,
        cwd: app,
        timeoutMs: 180_000,
        env: {
          PATH: process.env.PATH,
          HOME: content,
          NODE_ENV: 'production',
          url: `http://127.0.0.1:${port}`,
          server__host: '127.0.0.1',
          server__port: String(port),
          database__client: 'sqlite3',
          database__connection__filename: join(content, 'data', 'ghost.db'),
          database__useNullAsDefault: 'true',
          paths__contentPath: content,
          mail__transport: 'SMTP',
          mail__from: 'Ghost <ghost@demo.test>',
          mail__options__host: '127.0.0.1',
          mail__options__port: String(options.smtpPort),
          mail__options__secure: 'false',
          mail__options__ignoreTLS: 'true',
          logging__transports: '["stdout"]',
          logging__level: 'warn',
          security__staffDeviceVerification: 'true',
          privacy__useUpdateCheck: 'false',
          privacy__useGravatar: 'false',
          privacy__useRpcPing: 'false',
          privacy__useStructuredData: 'false',
        },
      });
      return { d, port };
    });
    const url = `http://127.0.0.1:${daemon.port}`;
    try {
      await untilAdminAnswers(url, daemon.d.output);
      const setup = await call(`${url}/ghost/api/admin/authentication/setup/`, {
        method: 'POST',
        origin: url,
        body: JSON.stringify({ setup: [{ name: 'Owner', email: owner.email, password: owner.password, blogTitle: 'Multiauth trial' }] }),
      });
      if (setup.status !== 201) throw new Error(`Ghost's setup answered ${setup.status}: ${(await setup.text()).slice(0, 500)}`);
      // Ghost mails no code for a user's very first sign-in (the setup wizard's own): sign in once as
      // the wizard does, so that the owner's sign-ins from now on are from new devices.
      const first = await call(`${url}/ghost/api/admin/session/`, { method: 'POST', origin: url, body: JSON.stringify({ username: owner.email, password: owner.password }) });
      if (first.status !== 201) throw new Error(`Ghost's first sign-in of the owner answered ${first.status}: ${(await first.text()).slice(0, 500)}`);
    } catch (error) {
      await daemon.d.stop();
      throw error;
    }
    return {
      url,
      owner,
      stop: async () => {
        await daemon.d.stop();
        await removeDir(content);
      },
    };
  } catch (error) {
    await removeDir(content);
    throw error;
  }
}

/**
 * Ghost listens before its database is migrated and answers 503 meanwhile: the site endpoint of
 * the admin API answers 200 once it is ready. Two minutes at most (its first boot creates the
 * database: about 30 s on a loaded 2-core machine).
 */
async function untilAdminAnswers(url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const answer = await fetch(`${url}/ghost/api/admin/site/`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    if (answer?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Ghost did not answer at ${url}/ghost/api/admin/site/ within 120 s:\n${output().slice(-2000)}`);
}

/**
 * Makes a member the way a reader signs up: a signup link by mail (`emailType: signup`), opened
 * once. `mailTo` waits for the link to that address and returns it.
 *
 * @example
 * await signUpMember(ghost, 'member@demo.test', (to) => waitForLink(to));
 */
export async function signUpMember(ghost: GhostServer, email: string, linkFor: (to: string) => Promise<string>): Promise<void> {
  const sent = await call(`${ghost.url}/members/api/send-magic-link/`, { method: 'POST', origin: ghost.url, body: JSON.stringify({ email, emailType: 'signup', name: 'Member' }) });
  if (sent.status !== 201) throw new Error(`Ghost's send-magic-link answered ${sent.status}: ${(await sent.text()).slice(0, 500)}`);
  const opened = await fetch(await linkFor(email), { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  if (opened.status !== 302) throw new Error(`Ghost's signup link answered ${opened.status}`);
}
