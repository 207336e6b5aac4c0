import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { parse } from 'yaml';
import { runCliAsync } from '../support/cli.js';
import { startDjango, type DjangoServer } from '../support/servers/django.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// Issue 26, "tried against a real application nobody here wrote": Debian's Django admin and its
// documented permissions (docs.djangoproject.com, "The Django admin site" and "Permissions and
// Authorization"): a superuser may do everything; a staff user sees a model's changelist and its
// objects' pages (read-only) with the model's view permission, its add page only with the add
// permission, and gets 403 on a model it has no permission for; a user who is not staff is sent
// to the admin's login page, as anonymous is.

const test = base.extend<object, { django: DjangoServer }>({
  django: [
    async ({}, use) => {
      const django = await startDjango();
      await use(django);
      await django.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

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
  const user = (name: string, { username, password }: { username: string; password: string }) =>
    `  - { name: ${name}, procedure: django-login, credentials: { username: ${username}, password: ${password} } }`;
  return `# Django admin roles, signed in through Django's LoginView
validation: { url: "${django.url}/accounts/password_change/", match: id_old_password }
procedures:
  - name: django-login
    operations:
      - tech: http
        parameters: { url: "${django.url}/accounts/login/", method: GET }
        extractions:
          - { name: csrf, location: body, key: csrfmiddlewaretoken, regex: 'name="csrfmiddlewaretoken" value="([^"]+)"' }
      - tech: http
        parameters:
          url: "${django.url}/accounts/login/"
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "csrfmiddlewaretoken={{csrf}}&username={{username}}&password={{password}}"
          follow_redirects: 0
        extractions:
          - { name: session, location: cookie, key: sessionid }
    injections:
      - { location: cookie, key: sessionid, variable: session }
users:
${user('admin', { username: django.username, password: django.password })}
${user('viewer', django.roles.viewer)}
${user('staff', django.roles.staff)}
${user('member', django.roles.member)}   # active, not staff
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

test('Django admin: --update records its documented permissions, the matrix then matches, and a permission removed by hand is an unexpected deny', async ({ django }) => {
  test.setTimeout(120_000);
  const dir = tempDir();
  const file = join(dir, 'multiauth.yaml');
  const written = config(django);
  writeFileSync(file, written);

  const recorded = await runCliAsync(['matrix', '--update'], { cwd: dir });
  expect(recorded.stderr).toContain('recorded the observed matrix into access.expect');
  expect(recorded.code).toBe(0);
  const updated = readFileSync(file, 'utf8');
  expect(parse(updated).access.expect).toEqual(DOCUMENTED);
  // Only access.expect changed: every comment and line above it is as written.
  expect(updated.startsWith(written.slice(0, written.indexOf('  expect: {}')))).toBe(true);
  expect(updated).toContain('\n  expect:\n    # recorded by multiauth matrix --update\n    admin: allow\n    viewer:\n      admin index: allow\n');

  const matches = await runCliAsync(['matrix', '--json'], { cwd: dir });
  expect(matches.stderr).toBe('');
  expect(matches.code).toBe(0);
  const observed = JSON.parse(matches.stdout);
  expect(observed.ok).toBe(true);
  expect(observed.cells.viewer['add a user']).toMatchObject({ outcome: 'deny', status: 403 });
  expect(observed.cells.member['users changelist']).toMatchObject({ outcome: 'deny', status: 302, why: 'a redirect to the login page (/admin/login/)' });
  expect(matches.stdout).not.toContain(django.password);
  expect(matches.stdout).not.toContain(django.roles.viewer.password);

  await django.shell("from django.contrib.auth.models import User; User.objects.get(username='viewer').user_permissions.clear()");
  const broken = await runCliAsync(['matrix'], { cwd: dir });
  expect(broken.code).toBe(1);
  const problems = broken.stdout.split('\n').filter((line) => / was (allowed|denied) /.test(line));
  expect(problems).toEqual([
    `users changelist: viewer was denied GET ${django.url}/admin/auth/user/: expected allow (HTTP 403)`,
    `change admin's user: viewer was denied GET ${django.url}/admin/auth/user/1/change/: expected allow (HTTP 403)`,
  ]);
  expect(broken.stdout).toMatch(/unexpected deny 403/);
  expect(broken.stdout).toContain('25 cells: 23 as expected, 2 unexpected');
});
