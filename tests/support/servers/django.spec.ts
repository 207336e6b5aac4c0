import { test, expect } from '@playwright/test';
import { startDjango } from './django.js';

test('Django\'s admin answers a wrong password with 200 and its form again, with its own message', async () => {
  test.setTimeout(180_000);
  const django = await startDjango();
  try {
    const page = await fetch(`${django.url}/admin/login/`);
    expect(page.status).toBe(200);
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const body = new URLSearchParams({ csrfmiddlewaretoken: csrf, username: django.username, password: 'wrong', next: '/admin/' });
    const refused = await fetch(`${django.url}/admin/login/?next=/admin/`, { method: 'POST', body, headers: { cookie }, redirect: 'manual' });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain('Please enter the correct username and password');
    body.set('password', django.password);
    const accepted = await fetch(`${django.url}/admin/login/?next=/admin/`, { method: 'POST', body, headers: { cookie }, redirect: 'manual' });
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get('set-cookie')).toContain('sessionid=');
  } finally {
    await django.stop();
  }
});

test('two Django servers of a run start from one migrated project, each with its own database', async () => {
  test.setTimeout(180_000);
  const [first, second] = await Promise.all([startDjango(), startDjango()]);
  try {
    expect(first.url).not.toBe(second.url);
    const users = "print(sorted(User.objects.values_list('username', flat=True)))";
    const withUser = 'from django.contrib.auth.models import User';
    expect((await first.shell(`${withUser}; User.objects.create_user('only-in-first', password='x'); ${users}`)).trim())
      .toBe("['admin', 'member', 'only-in-first', 'staff', 'viewer']");
    // The second has the run's users (the role users too), not the first one's new user.
    expect((await second.shell(`${withUser}; ${users}`)).trim()).toBe("['admin', 'member', 'staff', 'viewer']");
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});
