import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runMain } from '../support/cli-in-process.js';
import { harOfFetches } from '../support/record-har.js';
import { djangoLogin, djangoUser, expect, test } from '../support/django.js';
import type { DjangoServer } from '../support/servers/django.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// Issue 26, "tried against a real application nobody here wrote": Debian's Django admin and its
// documented permissions (docs.djangoproject.com, "The Django admin site" and "Permissions and
// Authorization"): a superuser may do everything; a staff user sees a model's changelist and its
// objects' pages (read-only) with the model's view permission, its add page only with the add
// permission, and gets 403 on a model it has no permission for; a user who is not staff is sent
// to the admin's login page, as anonymous is.


test.afterAll(removeTempDirs);

/** What Django's documentation says each role gets (the superuser, id 1, is the object of "change"). */
const DOCUMENTED = {
  admin: 'allow',
  viewer: { 'admin index': 'allow', 'users changelist': 'allow', 'add a user': 'deny', "change admin's user": 'allow', 'groups changelist': 'deny' },
  staff: { 'admin index': 'allow', 'users changelist': 'deny', 'add a user': 'deny', "change admin's user": 'deny', 'groups changelist': 'deny' },
  member: 'deny',
  anonymous: 'deny',
};

function config(django: DjangoServer): string {
  return `# Django admin roles, signed in through Django's LoginView
${djangoLogin(django)}users:
${djangoUser('admin', { username: django.username, password: django.password })}
${djangoUser('viewer', django.roles.viewer)}
${djangoUser('staff', django.roles.staff)}
${djangoUser('member', django.roles.member)}   # active, not staff
access:
  requests:   # the admin's pages of django.contrib.auth's two models
    - { name: admin index, url: "${django.url}/admin/" }
    - { name: users changelist, url: "${django.url}/admin/auth/user/" }
    - { name: add a user, url: "${django.url}/admin/auth/user/add/" }
    - { name: change admin's user, url: "${django.url}/admin/auth/user/1/change/" }
    - { name: groups changelist, url: "${django.url}/admin/auth/group/" }
  expect: {}  # recorded by multiauth matrix --update
`;
}

/** The admin's browsing of the pages above as a HAR, signed in through the login page as a browser is (its cookies sent). */
async function adminHar(django: DjangoServer, dir: string): Promise<string> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const page = await fetch(`${django.url}/accounts/login/`);
  keep(page);
  const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await page.text())![1]!;
  const login = await fetch(`${django.url}/accounts/login/`, {
    method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie() },
    body: new URLSearchParams({ csrfmiddlewaretoken: csrf, username: django.username, password: django.password }).toString(),
  });
  keep(login);
  expect(cookies.has('sessionid')).toBe(true);
  const pages = ['/admin/', '/admin/auth/user/', '/admin/auth/user/add/', '/admin/auth/user/1/change/', '/admin/auth/group/'];
  const har = await harOfFetches([
    { url: `${django.url}/accounts/login/` },
    ...pages.map((path) => ({ url: `${django.url}${path}`, headers: { Cookie: cookie(), Accept: 'text/html' } })),
  ]);
  const file = join(dir, 'admin.har');
  writeFileSync(file, JSON.stringify(har));
  return file;
}

test('Django admin: the admin\'s recorded browsing replayed as each role (multiauth replay): the pages each may also open are those Django documents', async ({ django }) => {
  test.setTimeout(120_000);
  const dir = tempDir();
  writeFileSync(join(dir, 'multiauth.yaml'), config(django));
  await adminHar(django, dir);
  const run = await runMain(['replay', '--har', 'admin.har', '--user', 'admin', '--as', 'viewer,staff,member', '--json'], { cwd: dir });
  expect(run.stderr).toBe("1 recorded request carried no credentials of admin's: not replayed\n");
  const report = JSON.parse(run.stdout) as { requests: Array<{ url: string; status: number; replays: Record<string, { verdict: string; status?: number }> }>; findings: number };
  const path = (url: string) => new URL(url).pathname;
  // The login page carried no session: not replayed. Each of the five pages was, the admin's answer 200.
  expect(report.requests.map((row) => path(row.url)).sort()).toEqual(['/admin/', '/admin/auth/group/', '/admin/auth/user/', '/admin/auth/user/1/change/', '/admin/auth/user/add/']);
  for (const row of report.requests) expect(row.status).toBe(200);
  const opens = (user: string) => report.requests.filter((row) => ['same', 'different'].includes(row.replays[user]!.verdict)).map((row) => path(row.url)).sort();
  expect(opens('viewer')).toEqual(['/admin/', '/admin/auth/user/', '/admin/auth/user/1/change/']);
  expect(opens('staff')).toEqual(['/admin/']);
  expect(opens('member')).toEqual([]);
  expect(opens('anonymous')).toEqual([]);
  for (const row of report.requests) {
    if (opens('viewer').includes(path(row.url))) continue;
    expect(row.replays.viewer).toEqual({ verdict: 'denied', status: 403 });
  }
  expect(report.requests.every((row) => row.replays.member!.verdict === 'denied' && row.replays.anonymous!.verdict === 'denied')).toBe(true);
  // Every page a role may open answers it with its own page (no add or save button, fewer models): not the admin's answer, no finding.
  expect(report.requests.filter((row) => opens('viewer').includes(path(row.url))).map((row) => row.replays.viewer)).toEqual([
    { verdict: 'different', status: 200 }, { verdict: 'different', status: 200 }, { verdict: 'different', status: 200 },
  ]);
  expect(report.requests.find((row) => path(row.url) === '/admin/auth/user/')?.replays.member).toEqual({ verdict: 'denied', status: 302 });
  expect(report.findings).toBe(0);
  expect(run.code).toBe(0);
  expect(run.stdout).not.toContain(django.password);
});

test('Django admin: --update records its documented permissions, the matrix then matches, and a permission removed by hand is an unexpected deny', async ({ django }) => {
  test.setTimeout(120_000);
  const dir = tempDir();
  const file = join(dir, 'multiauth.yaml');
  const written = config(django);
  writeFileSync(file, written);

  const recorded = await runMain(['matrix', '--update'], { cwd: dir });
  expect(recorded.stderr).toContain('recorded the observed matrix into access.expect');
  expect(recorded.code).toBe(0);
  const updated = readFileSync(file, 'utf8');
  expect(parse(updated).access.expect).toEqual(DOCUMENTED);
  // Only access.expect changed: every comment and line above it is as written.
  expect(updated.startsWith(written.slice(0, written.indexOf('  expect: {}')))).toBe(true);
  expect(updated).toContain('\n  expect:\n    # recorded by multiauth matrix --update\n    admin: allow\n    viewer:\n      admin index: allow\n');

  const matches = await runMain(['matrix', '--json'], { cwd: dir });
  expect(matches.stderr).toBe('');
  expect(matches.code).toBe(0);
  const observed = JSON.parse(matches.stdout);
  expect(observed.ok).toBe(true);
  expect(observed.cells.viewer['add a user']).toMatchObject({ outcome: 'deny', status: 403 });
  expect(observed.cells.member['users changelist']).toMatchObject({ outcome: 'deny', status: 302, why: 'a redirect to the login page (/admin/login/)' });
  expect(matches.stdout).not.toContain(django.password);
  expect(matches.stdout).not.toContain(django.roles.viewer.password);

  await django.shell("from django.contrib.auth.models import User; User.objects.get(username='viewer').user_permissions.clear()");
  // The worker's Django is shared with the other files of the worker: the viewer gets its permission back.
  try {
    const broken = await runMain(['matrix'], { cwd: dir });
    expect(broken.code).toBe(1);
    const problems = broken.stdout.split('\n').filter((line) => / was (allowed|denied) /.test(line));
    expect(problems).toEqual([
      `users changelist: viewer was denied GET ${django.url}/admin/auth/user/: expected allow (HTTP 403)`,
      `change admin's user: viewer was denied GET ${django.url}/admin/auth/user/1/change/: expected allow (HTTP 403)`,
    ]);
    expect(broken.stdout).toMatch(/unexpected deny 403/);
    expect(broken.stdout).toContain('25 cells: 23 as expected, 2 unexpected');
  } finally {
    await django.shell("from django.contrib.auth.models import Permission, User; User.objects.get(username='viewer').user_permissions.add(Permission.objects.get(codename='view_user'))");
  }
});
