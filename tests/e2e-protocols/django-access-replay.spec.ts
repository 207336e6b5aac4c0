import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { djangoLogin, djangoUser, expect, test } from '../support/django.js';
import type { DjangoServer } from '../support/servers/django.js';

// Issue 38, "tried against a real application nobody here wrote": Debian's Django admin. A suite
// that only opens pages as the superuser, replayed as a staff user with only auth.view_user
// (viewer), a staff user without permissions (nobody), a second superuser (deputy) and anonymous.
// Django's documentation ("The Django admin site", "Permissions and Authorization"): the view
// permission shows a model's changelist and its objects' pages read-only (an answer for that user:
// `different`); a model without it is a 403; a staff user without any permission sees the index
// saying so; anonymous is sent to the login page (denied). A superuser has every permission: its
// pages are the owner's (`same`, a finding while anonymous is denied: a peer's access to review).
// Every page greets its user ("Welcome, admin."): before the replay read greetings as such, the
// deputy got `different` on every page and no finding.

const DEPUTY = { username: 'deputy', password: 'dj-deputy-pass-5b2a' };

function config(django: DjangoServer): string {
  return `scope: ["${django.url}"]
${djangoLogin(django)}users:
${djangoUser('admin', { username: django.username, password: django.password })}
${djangoUser('viewer', django.roles.viewer)}
${djangoUser('nobody', django.roles.staff)}
${djangoUser('deputy', DEPUTY)}
`;
}

const SPEC = `import { test, expect } from 'playwright-multiauth';
test('the administrator opens the admin pages', async ({ page }) => {
  for (const path of ['/admin/', '/admin/auth/user/', '/admin/auth/user/1/change/', '/admin/auth/group/', '/admin/auth/group/1/change/']) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
  }
});
`;

test('Django admin: a suite that opens pages as the superuser learns which of them the view-only and the no-permission staff users may also open', async ({ django }) => {
  test.setTimeout(180_000);
  await django.shell("from django.contrib.auth.models import Group; Group.objects.get_or_create(name='editors')");
  await django.shell(`from django.contrib.auth.models import User; User.objects.create_superuser('${DEPUTY.username}', password='${DEPUTY.password}')`);
  const result = await runInlineProject({
    'multiauth.yaml': config(django),
    'playwright.config.ts': inlineConfig(`workers: 1, projects: [{ name: 'admin', use: { authUser: 'admin', accessReplay: { as: ['viewer', 'nobody', 'deputy'] } } }],`),
    'admin.spec.ts': SPEC,
  }, { env: { DEMO_URL: django.url } });
  expect(result.exitCode, result.output).toBe(0);
  const out = join(result.dir, 'test-results');
  const json = JSON.parse(readFileSync(join(out, 'multiauth-access-replay.json'), 'utf8')) as {
    requests: Array<{ owner: string; url: string; status: number; replays: Record<string, { verdict: string; status: number }>; findings: string[] }>;
    findings: number; skipped: Record<string, number>;
  };
  const table = Object.fromEntries(json.requests.map((row) => [
    `${row.owner} ${row.status} ${new URL(row.url).pathname}`,
    Object.entries(row.replays).map(([user, cell]) => `${user}: ${cell.verdict} ${cell.status}`).join(', '),
  ]));
  const peer = 'deputy: same 200, anonymous: denied 302';
  expect(table).toEqual({
    'admin 200 /admin/': `viewer: different 200, nobody: different 200, ${peer}`,
    'admin 200 /admin/auth/user/': `viewer: different 200, nobody: denied 403, ${peer}`,
    'admin 200 /admin/auth/user/1/change/': `viewer: different 200, nobody: denied 403, ${peer}`,
    'admin 200 /admin/auth/group/': `viewer: denied 403, nobody: denied 403, ${peer}`,
    'admin 200 /admin/auth/group/1/change/': `viewer: denied 403, nobody: denied 403, ${peer}`,
  });
  expect(json.requests.map((row) => row.findings)).toEqual([['deputy'], ['deputy'], ['deputy'], ['deputy'], ['deputy']]);
  expect(json.findings).toBe(5);
  // Only documents are replayed: the admin's styles, scripts and images are skipped as assets.
  expect(json.skipped).toMatchObject({ unsafe: 0, out_of_scope: 0, over_limit: 0 });
  expect(json.skipped.assets).toBeGreaterThan(0);
  expect(result.output).toContain('multiauth: access replay: 5 requests replayed as viewer, nobody, deputy, anonymous; 5 findings');
  const markdown = readFileSync(join(out, 'multiauth-access-replay.md'), 'utf8');
  expect(markdown).toContain("- deputy gets admin's answer to GET /admin/auth/group/1/change/ (anonymous is denied): possible broken object-level authorization");
  for (const text of [JSON.stringify(json), markdown, result.output]) {
    for (const secret of [django.password, django.roles.viewer.password, DEPUTY.password]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/sessionid=|csrfmiddlewaretoken=/);
  }
});
