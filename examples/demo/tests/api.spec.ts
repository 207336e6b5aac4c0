import { test, expect } from 'playwright-multiauth';

test.describe('as alice (JSON token, refreshed before it expires)', () => {
  test.use({ authUser: 'alice' });

  test('the API sees alice, through the Authorization header', async ({ authedRequest }) => {
    expect(await (await authedRequest.get('/whoami')).json()).toEqual({ user: 'alice', via: 'header', role: 'admin' });
  });

  test('the session is there for custom clients too', async ({ authSession }) => {
    expect(authSession?.headers.Authorization?.[0]).toMatch(/^Bearer ey/);
    expect(authSession?.expiresAt).toBeGreaterThan(Date.now());
  });
});

test.describe('as carol (OAuth password grant)', () => {
  test.use({ authUser: 'carol' });

  test('the API sees carol', async ({ authedRequest }) => {
    expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'carol', role: 'viewer' });
  });
});

test.describe('as dave (a pasted curl command)', () => {
  test.use({ authUser: 'dave' });

  test('the API sees dave', async ({ authedRequest }) => {
    expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'dave', role: 'viewer' });
  });
});
