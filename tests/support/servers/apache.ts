import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDebianPackage } from './debian.js';
import { DIGEST_USERS, htdigestLines, WHOAMI_CGI } from './htdigest.js';
import { makeTempDir, removeDir, startDaemon, startOnFreePort } from './process.js';

/** A running Apache httpd with mod_auth_digest. */
export interface ApacheServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  realm: string;
  users: Record<string, string>;
  /** Protected paths, each serving a CGI script that answers `{"user","auth"}` JSON. */
  paths: {
    /**
     * Algorithm MD5, qop `auth`: all Apache 2.4 offers (its config refuses `AuthDigestAlgorithm
     * MD5-sess` and any `AuthDigestQop` but `auth`).
     */
    md5: string;
  };
  stop(): Promise<void>;
}

/** Options of {@link startApache}. */
export interface ApacheOptions {
  realm?: string;
  users?: Record<string, string>;
}

const MODULES = [
  ['mpm_prefork_module', 'mod_mpm_prefork.so'],
  ['authn_core_module', 'mod_authn_core.so'],
  ['authn_file_module', 'mod_authn_file.so'],
  ['authz_core_module', 'mod_authz_core.so'],
  ['authz_user_module', 'mod_authz_user.so'],
  ['auth_digest_module', 'mod_auth_digest.so'],
  ['cgi_module', 'mod_cgi.so'],
] as const;

/**
 * Starts Debian's Apache httpd (installed when missing) in the foreground (`-X`) on a free port of
 * 127.0.0.1, with a minimal config in a temp dir: `AuthType Digest`, `AuthDigestProvider file`, a
 * user file written in htdigest format, and a CGI script that echoes `REMOTE_USER`.
 *
 * @example
 * const apache = await startApache();
 * await request(apache.url + apache.paths.md5); // 401, WWW-Authenticate: Digest realm=..., algorithm=MD5
 * await apache.stop();
 */
export async function startApache(options: ApacheOptions = {}): Promise<ApacheServer> {
  const binary = await ensureDebianPackage('apache2', '/usr/sbin/apache2');
  const realm = options.realm ?? 'multiauth apache';
  const users = { ...(options.users ?? DIGEST_USERS) };
  const dir = await makeTempDir('apache', true);
  const paths = { md5: '/md5/whoami.cgi' };
  try {
    const docroot = join(dir, 'htdocs');
    for (const path of Object.values(paths)) {
      const file = join(docroot, path);
      await mkdir(join(file, '..'), { recursive: true, mode: 0o755 });
      await writeFile(file, WHOAMI_CGI, { mode: 0o755 });
      await chmod(file, 0o755);
    }
    await chmod(docroot, 0o755);
    const userFile = join(dir, 'htdigest');
    await writeFile(userFile, `${htdigestLines(users, realm, ['md5']).join('\n')}\n`);
    await chmod(userFile, 0o644);
    const { port, daemon } = await startOnFreePort(async (port) => {
      const conf = join(dir, 'httpd.conf');
      await writeFile(conf, config({ port, dir, docroot, userFile, realm }));
      await chmod(conf, 0o644);
      const args = ['-X', '-d', dir, '-f', conf];
      return { port, daemon: await startDaemon({ name: 'apache2', command: binary, args, port, env: { PATH: process.env.PATH, LANG: 'C' } }) };
    });
    return {
      url: `http://127.0.0.1:${port}`,
      realm,
      users,
      paths,
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

function config(c: { port: number; dir: string; docroot: string; userFile: string; realm: string }): string {
  const asRoot = process.getuid?.() === 0;
  const protectedDir = (name: string) => `
<Directory "${c.docroot}/${name}">
  Options +ExecCGI
  SetHandler cgi-script
  AuthType Digest
  AuthName ${JSON.stringify(c.realm)}
  AuthDigestAlgorithm MD5
  AuthDigestDomain /${name}/
  AuthDigestProvider file
  AuthUserFile "${c.userFile}"
  Require valid-user
</Directory>`;
  return `
${MODULES.map(([name, file]) => `LoadModule ${name} /usr/lib/apache2/modules/${file}`).join('\n')}
ServerRoot "${c.dir}"
ServerName 127.0.0.1
Listen 127.0.0.1:${c.port}
PidFile "${c.dir}/httpd.pid"
DefaultRuntimeDir "${c.dir}"
ErrorLog "${c.dir}/error.log"
LogLevel warn
# -X serves one connection at a time: a kept-alive idle one would stall the next for 5 s.
KeepAlive Off
${asRoot ? 'User www-data\nGroup www-data' : ''}
DocumentRoot "${c.docroot}"
<Directory />
  AllowOverride None
  Require all denied
</Directory>
${protectedDir('md5')}
`;
}
