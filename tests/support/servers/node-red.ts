import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../root.js';
import { makeTempDir, removeDir, startDaemon, startOnFreePort } from './process.js';

/** A running Node-RED (the npm package, a devDependency) with its editor behind `adminAuth`. */
export interface NodeRedServer {
  /** `http://127.0.0.1:PORT`: the editor, and its admin API (`/auth/token`, `/flows`, `/settings`). */
  url: string;
  /** The one admin user's name and password. */
  username: string;
  password: string;
  stop(): Promise<void>;
}

const requireFromNodeRed = createRequire(join(ROOT, 'node_modules', 'node-red', 'package.json'));

/** The settings file: only what a locked-down editor on loopback needs, no prompt or outside call. */
function settings(port: number, username: string, hash: string): string {
  return `module.exports = {
  uiHost: '127.0.0.1',
  uiPort: ${port},
  flowFile: 'flows.json',
  credentialSecret: false,
  adminAuth: { type: 'credentials', users: [{ username: ${JSON.stringify(username)}, password: ${JSON.stringify(hash)}, permissions: '*' }] },
  diagnostics: { enabled: false },
  telemetry: { enabled: false },
  logging: { console: { level: 'warn', metrics: false, audit: false } },
  editorTheme: { tours: false, projects: { enabled: false }, palette: { editable: false } },
  externalModules: { autoInstall: false, palette: { allowInstall: false } },
};
`;
}

/**
 * Starts Node-RED (`node_modules/node-red/red.js`) in a fresh user directory on a free port of
 * 127.0.0.1, its editor protected by `adminAuth` with one admin (password stored as bcrypt, as
 * Node-RED's docs say). The editor signs in with an OAuth password grant: a form POST to
 * `/auth/token` (`client_id=node-red-editor`, `grant_type=password`, `scope=`) that answers
 * `{"access_token", "expires_in", "token_type": "Bearer"}`; every admin API call then carries
 * `Authorization: Bearer <access_token>`, and without it `/flows` answers 401.
 *
 * @example
 * const red = await startNodeRed();
 * // POST `${red.url}/auth/token` ...
 * await red.stop();
 */
export async function startNodeRed(): Promise<NodeRedServer> {
  const dir = await makeTempDir('node-red');
  const username = 'admin';
  const password = 'nr-admin-pass-3b9d';
  const bcrypt = requireFromNodeRed('bcryptjs') as { hashSync(value: string, rounds: number): string };
  const hash = bcrypt.hashSync(password, 8);
  try {
    const daemon = await startOnFreePort(async (port) => {
      const file = join(dir, 'settings.js');
      await writeFile(file, settings(port, username, hash));
      const red = join(ROOT, 'node_modules', 'node-red', 'red.js');
      const d = await startDaemon({
        name: 'node-red',
        command: process.execPath,
        args: [red, '--userDir', dir, '--settings', file, '--port', String(port)],
        port,
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir, NODE_RED_HOME: dir },
        timeoutMs: 60_000,
      });
      return { d, port };
    });
    return {
      url: `http://127.0.0.1:${daemon.port}`,
      username,
      password,
      stop: async () => {
        await daemon.d.stop();
        await removeDir(dir);
      },
    };
  } catch (error) {
    await removeDir(dir);
    throw error;
  }
}
