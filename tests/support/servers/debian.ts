import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * Where `binary` is: an absolute path as is, else the first match on PATH or in the system dirs.
 *
 * @example
 * findBinary('lighttpd'); // '/usr/sbin/lighttpd'
 */
export function findBinary(binary: string): string | undefined {
  const candidates = isAbsolute(binary)
    ? [binary]
    : [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...SYSTEM_DIRS].map((dir) => join(dir, binary));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Makes sure the Debian package `name` that provides `binary` is installed, installing it with
 * apt-get only when the binary is missing (as root, else through `sudo -n`), and returns the
 * binary's path. Tests call it before starting a real server, so a fresh machine needs nothing else.
 *
 * @example
 * const lighttpd = await ensureDebianPackage('lighttpd', 'lighttpd');
 */
export async function ensureDebianPackage(name: string, binary: string): Promise<string> {
  const found = findBinary(binary);
  if (found) return found;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = async (...args: string[]) => {
    const [command, ...rest] = [...sudo, 'apt-get', '-o', 'DPkg::Lock::Timeout=300', ...args];
    await run(command as string, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 });
  };
  const install = () => apt('install', '-y', '-qq', '--no-install-recommends', name);
  try {
    await install();
  } catch {
    await apt('update', '-qq');
    await install();
  }
  const installed = findBinary(binary);
  if (!installed) throw new Error(`Debian package ${name} was installed but ${binary} is still not found`);
  return installed;
}
