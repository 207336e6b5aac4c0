import { execFile } from 'node:child_process';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { oncePerRun } from '../once-per-run.js';
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
  /** The users below the superuser, by role (their user name is the role). */
  roles: Record<DjangoRole, { username: string; password: string }>;
  /** Runs Python in the project (`manage.py shell -c`), e.g. to change a permission by hand; its stdout. */
  shell(python: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Django's admin roles (docs: "The Django admin site", permissions): `viewer` is staff with only
 * `auth.view_user`, `staff` is staff without any permission, `member` is an active user who is not staff.
 */
export type DjangoRole = 'viewer' | 'staff' | 'member';

const ROLE_PASSWORD = 'dj-role-pass-41e7';

/**
 * The project's urls.py with the accounts pages added: a login page for every active user at
 * `/accounts/login/` (Django's own `LoginView` with the admin's template: the admin's login refuses
 * users who are not staff) with Django's `django.contrib.auth.urls` beside it (so
 * `/accounts/password_change/` answers a signed-in user of any role with its form).
 */
const ROLE_URLS = `from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path('admin/', admin.site.urls),
    path('accounts/login/', auth_views.LoginView.as_view(template_name='admin/login.html')),
    path('accounts/', include('django.contrib.auth.urls')),
]
`;

const CREATE_ROLES = `
from django.contrib.auth.models import Permission, User
viewer = User.objects.create_user('viewer', password='${ROLE_PASSWORD}', is_staff=True)
viewer.user_permissions.add(Permission.objects.get(content_type__app_label='auth', codename='view_user'))
User.objects.create_user('staff', password='${ROLE_PASSWORD}', is_staff=True)
User.objects.create_user('member', password='${ROLE_PASSWORD}')
`;

/** Debian's Python: the one python3-django installs into (a pyenv's python3 on PATH does not see it). */
const PYTHON = '/usr/bin/python3';

/** Waiting for another worker's project: startproject, migrate and the users take a minute when the machine is loaded. */
const TEMPLATE_WAIT_MS = 180_000;

/**
 * The migrated project with its users, made once per run (`home/project`): every server copies it,
 * so a server costs a copy and `runserver`, not the seconds of `migrate` and the users' password hashes.
 */
async function projectTemplate(): Promise<string> {
  const home = await oncePerRun({
    name: 'django',
    key: 'project',
    waitMs: TEMPLATE_WAIT_MS,
    build: async (home) => {
      const dir = join(home, 'project');
      await mkdir(dir);
      await run(PYTHON, ['-m', 'django', 'startproject', 'multiauthsite', dir], { env: djangoEnv(), timeout: 60_000 });
      const manage = (...args: string[]) => run(PYTHON, ['manage.py', ...args], { cwd: dir, env: djangoEnv(), timeout: 120_000 });
      await manage('migrate', '--noinput');
      await manage('createsuperuser', '--noinput', '--username', USERNAME, '--email', 'admin@example.test');
      await writeFile(join(dir, 'multiauthsite', 'urls.py'), ROLE_URLS);
      await manage('shell', '-c', CREATE_ROLES);
    },
  });
  return join(home, 'project');
}

const USERNAME = 'admin';
const PASSWORD = 'dj-admin-pass-8c1f';

function djangoEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PYTHONDONTWRITEBYTECODE: '1', DJANGO_SUPERUSER_PASSWORD: PASSWORD };
}

/**
 * Starts a Django project from Debian's `python3-django` (installed when missing) in a temp
 * directory of its own: a copy of the run's project (made once per run: `django-admin
 * startproject`, `migrate` (SQLite), a superuser created from the environment), then `runserver`
 * on a free port of 127.0.0.1 (DEBUG on, as a developer runs it), with users of Django's admin
 * roles ({@link DjangoRole}) and the accounts pages of {@link ROLE_URLS}. Each server has its own database: what a test changes
 * (a permission, a user) is seen by no other server.
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
  const template = await projectTemplate();
  const dir = await makeTempDir('django');
  const env = djangoEnv();
  try {
    await cp(template, dir, { recursive: true });
    const manage = (...args: string[]) => run(PYTHON, ['manage.py', ...args], { cwd: dir, env, timeout: 120_000 });
    const role = (username: DjangoRole) => ({ username, password: ROLE_PASSWORD });
    const roles = { viewer: role('viewer'), staff: role('staff'), member: role('member') };
    const daemon = await startOnFreePort((port) =>
      startDaemon({ name: 'django', command: PYTHON, args: ['manage.py', 'runserver', '--noreload', `127.0.0.1:${port}`], port, cwd: dir, env, timeoutMs: 60_000 }).then((d) => ({ d, port })),
    );
    return {
      url: `http://127.0.0.1:${daemon.port}`,
      username: USERNAME,
      password: PASSWORD,
      roles,
      shell: async (python) => (await manage('shell', '-c', python)).stdout,
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
