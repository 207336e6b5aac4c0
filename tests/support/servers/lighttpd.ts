import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDebianPackage } from './debian.js';
import { DIGEST_USERS, htdigestLines, WHOAMI_CGI } from './htdigest.js';
import { makeTempDir, removeDir, startDaemon, startOnFreePort } from './process.js';

/** Protected paths of {@link startLighttpd}, each serving `whoami.sh` (`{"user","auth"}` JSON). */
export interface LighttpdPaths {
  /** Digest, algorithm MD5 (and MD5-sess answers, which lighttpd always accepts). */
  md5: string;
  /** Digest, algorithm SHA-256 (and SHA-256-sess answers). */
  sha256: string;
  /** Digest offering both: two challenges, SHA-256 first. */
  both: string;
  /** Digest MD5 and SHA-256 with `userhash=true` (RFC 7616 section 3.4.4). */
  userhash: string;
  /** HTTP Basic against the same user file. */
  basic: string;
  /** Not protected. */
  open: string;
}

/** A running lighttpd with digest-protected paths. */
export interface LighttpdServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  realm: string;
  /** username -> password of the users it knows. */
  users: Record<string, string>;
  /** Paths (start with `/`) of the protected `whoami.sh` scripts. */
  paths: LighttpdPaths;
  stop(): Promise<void>;
}

/** Options of {@link startLighttpd}. */
export interface LighttpdOptions {
  realm?: string;
  users?: Record<string, string>;
}

const PATHS: LighttpdPaths = {
  md5: '/md5/whoami.sh',
  sha256: '/sha256/whoami.sh',
  both: '/both/whoami.sh',
  userhash: '/userhash/whoami.sh',
  basic: '/basic/whoami.sh',
  open: '/open/whoami.sh',
};

/**
 * Starts lighttpd (Debian's, installed when missing) on a free port of 127.0.0.1 with mod_auth and
 * the htdigest backend: one protected path per digest flavour, each running a CGI script that
 * echoes `REMOTE_USER`, so a test sees which user the server authenticated.
 *
 * @example
 * const server = await startLighttpd();
 * await request(server.url + server.paths.sha256); // 401, WWW-Authenticate: Digest ... algorithm=SHA-256
 * await server.stop();
 */
export async function startLighttpd(options: LighttpdOptions = {}): Promise<LighttpdServer> {
  const binary = await ensureDebianPackage('lighttpd', 'lighttpd');
  const realm = options.realm ?? 'multiauth lighttpd';
  const users = { ...(options.users ?? DIGEST_USERS) };
  const dir = await makeTempDir('lighttpd');
  try {
    const docroot = join(dir, 'htdocs');
    for (const path of Object.values(PATHS)) {
      const file = join(docroot, path);
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, WHOAMI_CGI);
      await chmod(file, 0o755);
    }
    const userFile = join(dir, 'htdigest');
    await writeFile(userFile, `${htdigestLines(users, realm, ['md5', 'sha256'], true).join('\n')}\n`, { mode: 0o600 });
    const { port, daemon } = await startOnFreePort(async (port) => {
      const conf = join(dir, 'lighttpd.conf');
      await writeFile(conf, config({ port, docroot, userFile, realm, dir }));
      return { port, daemon: await startDaemon({ name: 'lighttpd', command: binary, args: ['-D', '-f', conf], port }) };
    });
    return {
      url: `http://127.0.0.1:${port}`,
      realm,
      users,
      paths: PATHS,
      stop: async () => {
        await daemon.stop();
        await removeDir(dir);
      },
    };
  } catch (error) {
    await removeDir(dir);
    throw error;
  }
}

function config(c: { port: number; docroot: string; userFile: string; realm: string; dir: string }): string {
  const rule = (method: 'digest' | 'basic', extra = '') =>
    `("method" => "${method}", "realm" => ${JSON.stringify(c.realm)}, "require" => "valid-user"${extra})`;
  return `
server.modules = ("mod_auth", "mod_authn_file", "mod_cgi")
server.document-root = ${JSON.stringify(c.docroot)}
server.bind = "127.0.0.1"
server.port = ${c.port}
server.errorlog = ${JSON.stringify(join(c.dir, 'error.log'))}
server.upload-dirs = (${JSON.stringify(c.dir)})
server.feature-flags = ("auth.delay-invalid-creds" => "disable")
cgi.assign = (".sh" => "/bin/sh")
auth.backend = "htdigest"
auth.backend.htdigest.userfile = ${JSON.stringify(c.userFile)}
auth.require = (
  "/md5/" => ${rule('digest', ', "algorithm" => "MD5"')},
  "/sha256/" => ${rule('digest', ', "algorithm" => "SHA-256"')},
  "/both/" => ${rule('digest', ', "algorithm" => "MD5|SHA-256"')},
  "/userhash/" => ${rule('digest', ', "algorithm" => "MD5|SHA-256", "userhash" => "enable"')},
  "/basic/" => ${rule('basic')},
)
`;
}
