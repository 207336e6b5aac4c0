import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensureDebianPackage } from './debian.js';
import { makeTempDir, removeDir, startDaemon, startOnFreePort } from './process.js';

const run = promisify(execFile);

/** A running Django project (Debian's python3-django) with its admin site and one superuser. */
export interface DjangoServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The superuser's name and password. */
  username: string;
  password: string;
  stop(): Promise<void>;
}

/** Debian's Python: the one python3-django installs into (a pyenv's python3 on PATH does not see it). */
const PYTHON = '/usr/bin/python3';

/**
 * Starts a fresh Django project from Debian's `python3-django` (installed when missing): a temp
 * directory, `django-admin startproject`, `migrate` (SQLite), a superuser created from the
 * environment, then `runserver` on a free port of 127.0.0.1 (DEBUG on, as a developer runs it).
 * Its admin answers a wrong password with 200 and the login form again, the error in
 * `<p class="errornote">`, and a POST without a CSRF token with a 403 page full of CSS.
 *
 * @example
 * const django = await startDjango();
 * // POST `${django.url}/admin/login/` ...
 * await django.stop();
 */
export async function startDjango(): Promise<DjangoServer> {
  await ensureDebianPackage('python3-django', 'django-admin');
  const dir = await makeTempDir('django');
  const username = 'admin';
  const password = 'dj-admin-pass-8c1f';
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', DJANGO_SUPERUSER_PASSWORD: password };
  try {
    await run(PYTHON, ['-m', 'django', 'startproject', 'multiauthsite', dir], { env, timeout: 60_000 });
    const manage = (...args: string[]) => run(PYTHON, ['manage.py', ...args], { cwd: dir, env, timeout: 120_000 });
    await manage('migrate', '--noinput');
    await manage('createsuperuser', '--noinput', '--username', username, '--email', 'admin@example.test');
    const daemon = await startOnFreePort((port) =>
      startDaemon({ name: 'django', command: PYTHON, args: ['manage.py', 'runserver', '--noreload', `127.0.0.1:${port}`], port, cwd: dir, env, timeoutMs: 60_000 }).then((d) => ({ d, port })),
    );
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
