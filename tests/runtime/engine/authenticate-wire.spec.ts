import { test, expect } from '@playwright/test';
import type { PlanCredentials, RequestTemplate } from '../../../src/compile/plan.js';
import { MultiAuthError } from '../../../src/core/errors.js';
import { MASK, Redactor } from '../../../src/core/redactor.js';
import { bodyExcerpt } from '../../../src/runtime/http/status-error.js';
import { buildWireRequest } from '../../../src/runtime/engine/steps/wire-request.js';

const none: PlanCredentials = { headers: [], cookies: [], query: [], basic: 'none' };
const where = { user: 'alice', procedure: 'login', step: 0 };

function template(overrides: Partial<RequestTemplate> = {}): RequestTemplate {
  return { url: 'https://api.test/login', method: 'POST', headers: [], cookies: [], query: [], ...overrides };
}

test('defaults: 30 s timeout, 20 redirects, TLS verified, the config\'s proxy', () => {
  const wire = buildWireRequest(template(), {}, none, where, 'http://proxy.test:3128');
  expect(wire).toEqual({
    request: { method: 'POST', url: 'https://api.test/login', headers: [] },
    timeoutMs: 30_000,
    followRedirects: 20,
    insecure: false,
    proxy: 'http://proxy.test:3128',
  });
  const own = buildWireRequest(template({ timeout: 5, followRedirects: 0, insecure: true, proxy: 'http://other:1' }), {}, none, where, 'http://proxy.test:3128');
  expect(own).toMatchObject({ timeoutMs: 5_000, followRedirects: 0, insecure: true, proxy: 'http://other:1' });
});

test('templates expand first, then credentials merge in literally (a "{{" in a password stays)', () => {
  const wire = buildWireRequest(
    template({
      url: 'https://api.test/{{tenant}}/login',
      headers: [{ name: 'X-Tenant', values: ['{{tenant}}'] }],
      body: { user: '{{username}}', nested: { pw: '{{password}}' } },
    }),
    { tenant: 'acme', username: 'alice', password: 'p{{w}}' },
    { ...none, headers: [{ name: 'X-Static', values: ['{{not-a-template}}'] }], body: { extra: 'x' } },
    where,
  );
  expect(wire.request.url).toBe('https://api.test/acme/login');
  expect(wire.request.headers).toEqual([['X-Tenant', 'acme'], ['X-Static', '{{not-a-template}}'], ['Content-Type', 'application/json']]);
  expect(JSON.parse(wire.request.body ?? '')).toEqual({ user: 'alice', nested: { pw: 'p{{w}}' }, extra: 'x' });
});

test('an unknown variable is TEMPLATE_UNKNOWN_VARIABLE, not an empty string', () => {
  let error: unknown;
  try {
    buildWireRequest(template({ url: 'https://api.test/{{nope}}' }), { other: 'x' }, none, where);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(MultiAuthError);
  expect((error as MultiAuthError).code).toBe('TEMPLATE_UNKNOWN_VARIABLE');
  expect((error as MultiAuthError).context).toMatchObject({ user: 'alice', procedure: 'login', step: 0 });
});

test('cookies join the request\'s own Cookie header, query parameters are appended, each encoded once', () => {
  const wire = buildWireRequest(
    template({
      url: 'https://api.test/login?a=1',
      headers: [{ name: 'Cookie', values: ['own=1'] }],
      cookies: [{ name: 'sid', values: ['a b&c'] }],
      query: [{ name: 'q', values: ['x y', 'z'] }],
    }),
    {},
    none,
    where,
  );
  expect(wire.request.headers).toEqual([['Cookie', 'own=1; sid=a%20b%26c']]);
  expect(wire.request.url).toBe('https://api.test/login?a=1&q=x%20y&q=z');
});

test('bodies: strings as written, objects as JSON, or form-encoded when the Content-Type says so', () => {
  const text = buildWireRequest(template({ body: 'a=1&b={{v}}' }), { v: '2' }, none, where);
  expect(text.request).toMatchObject({ body: 'a=1&b=2', headers: [] });
  const json = buildWireRequest(template({ body: { n: 1, ok: true }, headers: [{ name: 'content-type', values: ['application/vnd.api+json'] }] }), {}, none, where);
  expect(json.request).toMatchObject({ body: '{"n":1,"ok":true}', headers: [['content-type', 'application/vnd.api+json']] });
  const form = buildWireRequest(
    template({
      body: { grant_type: 'password', password: '{{password}}', scope: ['a', 'b'] },
      headers: [{ name: 'Content-Type', values: ['application/x-www-form-urlencoded'] }],
    }),
    { password: 'p+w&x=1' },
    none,
    where,
  );
  expect(form.request.body).toBe('grant_type=password&password=p%2Bw%26x%3D1&scope=a&scope=b');
});

test('HTTP Basic from credentials on sign-in requests only when the rule says sign-in, unless the request has its own Authorization', () => {
  const basic: PlanCredentials = { ...none, username: 'alice', password: 'secret', basic: 'sign-in' };
  expect(buildWireRequest(template(), {}, basic, where).request.headers).toEqual([['Authorization', 'Basic YWxpY2U6c2VjcmV0']]);
  const own = buildWireRequest(template({ headers: [{ name: 'authorization', values: ['Bearer x'] }] }), {}, basic, where);
  expect(own.request.headers).toEqual([['authorization', 'Bearer x']]);
  // A user with a procedure: the password is a template value, never sent by itself (DESIGN.md "Requests").
  expect(buildWireRequest(template(), {}, { ...basic, basic: 'none' }, where).request.headers).toEqual([]);
  expect(buildWireRequest(template(), {}, { ...basic, basic: 'requests' }, where).request.headers).toEqual([]);
});

test('a body excerpt is redacted before it is cut, so half a secret is never shown', () => {
  const secret = 'S3cr3t-Value-That-Is-Long';
  const redactor = new Redactor().add(secret);
  const body = `${'x'.repeat(490)}${secret}${'y'.repeat(100)}`;
  const excerpt = bodyExcerpt(body, redactor);
  expect(excerpt.startsWith(`${'x'.repeat(490)}${MASK.slice(0, 10)}`)).toBe(true);
  expect(excerpt).not.toContain('S3cr3t');
  expect(excerpt).toMatch(/… \(\d+ more characters\)$/);
  expect(bodyExcerpt('  a \n\n b  ', redactor)).toBe('a b');
});
