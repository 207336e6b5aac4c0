import { test, expect } from '@playwright/test';
import { thrown } from '../../support/errors.js';
import { expandTemplate, holdsTemplate } from '../../../src/runtime/template/template.js';
import { templateNames } from '../../../src/core/template-names.js';

const where = { user: 'alice', procedure: 'login', step: 1, path: ['procedures', 0, 'operations', 1, 'parameters'] };

test('expands strings nested in objects and arrays, keeping other values and keys', () => {
  const input = {
    url: 'https://{{host}}/login',
    headers: [{ name: 'X-{{host}}', values: ['{{ token }}', 'static'] }],
    body: { user: { name: '{{username}}', tags: ['{{username}}-{{ host }}'] }, n: 3, ok: true, none: null },
  };
  const out = expandTemplate(input, { host: 'api.test', token: 't0k', username: 'alice' }, where);
  expect(out).toEqual({
    url: 'https://api.test/login',
    headers: [{ name: 'X-api.test', values: ['t0k', 'static'] }],
    body: { user: { name: 'alice', tags: ['alice-api.test'] }, n: 3, ok: true, none: null },
  });
  expect(input.url).toBe('https://{{host}}/login');
});

test('object keys are not templated', () => {
  expect(expandTemplate({ '{{a}}': '{{a}}' }, { a: 'x' }, where)).toEqual({ '{{a}}': 'x' });
});

test('spaces inside the braces are allowed; what is not an expression is an error, never kept as text', () => {
  expect(expandTemplate('{{a}}|{{ a }}|{{   a   }}|{a}', { a: '1' }, where)).toBe('1|1|1|{a}');
  expect(() => expandTemplate('{{ not a var }}', { a: '1' }, where)).toThrow(expect.objectContaining({ code: 'TEMPLATE_INVALID' }));
});

test('a quote or brace in a value cannot break a JSON body', () => {
  const value = 'p"a}s\\s\n{"x":1}';
  const body = expandTemplate({ password: '{{password}}' }, { password: value }, where);
  const wire = JSON.stringify(body);
  expect(JSON.parse(wire)).toEqual({ password: value });
  expect(Object.keys(JSON.parse(wire))).toEqual(['password']);
});

test('a value that looks like a template is not expanded again', () => {
  expect(expandTemplate('{{a}}', { a: '{{b}}', b: 'no' }, where)).toBe('{{b}}');
});

test('replacement patterns in a value are taken literally', () => {
  expect(expandTemplate('x={{a}}', { a: "$&$1$'" }, where)).toBe("x=$&$1$'");
});

test('an unknown variable names itself, the user, procedure, step and place, and lists defined names only', () => {
  const secret = 'S3cret-value-xyz';
  const error = thrown(() =>
    expandTemplate({ body: { list: ['ok {{password}}', 'use {{ refresh_tokn }}'] } }, { password: secret, refresh_token: 'rt-secret-123' }, where),
  );
  expect(error.code).toBe('TEMPLATE_UNKNOWN_VARIABLE');
  expect(error.message).toContain('{{refresh_tokn}}');
  expect(error.path).toEqual(['procedures', 0, 'operations', 1, 'parameters', 'body', 'list', 1]);
  expect(error.context).toEqual({ user: 'alice', procedure: 'login', step: 1 });
  const text = error.render();
  expect(text).toContain('procedures[0].operations[1].parameters.body.list[1]');
  expect(text).toContain('user "alice"');
  expect(text).toContain('procedure "login"');
  expect(text).toContain('step 2');
  expect(text).toContain('{{password}}, {{refresh_token}}');
  expect(text).toContain('Recommended fix:');
  expect(text).not.toContain(secret);
  expect(text).not.toContain('rt-secret-123');
});

test('an unknown variable with an empty scope says none are defined', () => {
  const error = thrown(() => expandTemplate('{{x}}', {}, { user: 'bob' }));
  expect(error.render()).toContain('variables defined at this point: (none)');
  expect(error.path).toEqual([]);
});

test('templateNames lists distinct names in order of first use', () => {
  expect(templateNames({ url: 'https://x/{{tenant}}', body: ['{{ user }}', '{{tenant}}', 3, null], h: { k: '{{a.b}}' } })).toEqual([
    'tenant',
    'user',
    'a.b',
  ]);
  expect(templateNames('no templates {here}')).toEqual([]);
});

test('what holds no template is shared with the result; what holds one is copied; the input never changes', () => {
  const input = { url: 'https://api.test/login', headers: [{ name: 'Accept', values: ['application/json'] }], body: { user: '{{username}}', meta: { v: 1 } } };
  const before = structuredClone(input);
  const out = expandTemplate(input, { username: 'alice' }, where);
  expect(out.headers).toBe(input.headers);
  expect(out.body.meta).toBe(input.body.meta);
  expect(out.body).not.toBe(input.body);
  expect(out).not.toBe(input);
  expect(out.body.user).toBe('alice');
  expect(input).toEqual(before);
  const plain = { url: 'https://api.test/x', body: ['a', { b: 'c' }] };
  expect(expandTemplate(plain, {}, where)).toBe(plain);
});

test('holdsTemplate says whether any string inside holds {{, once per object', () => {
  expect(holdsTemplate({ url: 'https://a.test/', body: { a: ['x', { b: 'y' }] } })).toBe(false);
  expect(holdsTemplate({ url: 'https://a.test/', body: { a: ['x', { b: '{{y}}' }] } })).toBe(true);
  expect(holdsTemplate([1, null, true])).toBe(false);
});

test('an unclosed {{ is TEMPLATE_INVALID at its place, never sent as text', () => {
  const error = thrown(() => expandTemplate({ body: { otp: '{{ a }} and {{ a' } }, { a: 's3cret-a' }, where));
  expect(error.code).toBe('TEMPLATE_INVALID');
  expect(error.message).toBe('invalid template: a {{ at character 13 is not closed by }}');
  expect(error.path).toEqual(['procedures', 0, 'operations', 1, 'parameters', 'body', 'otp']);
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'login', step: 1 });
});

test('every value derived from a secret goes to the sink; values from identifiers and literals alone do not', () => {
  const derived: string[] = [];
  const sink = { add: (...values: string[]) => derived.push(...values) };
  const scope = { username: 'alice', password: 'pw-123', totp_secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', token: 'tok-456' };
  expandTemplate({ only: '{{ basic(username, password) }}' }, scope, where, sink);
  expect(derived).toEqual([Buffer.from('alice:pw-123').toString('base64'), `Basic ${Buffer.from('alice:pw-123').toString('base64')}`]);
  const out = expandTemplate(
    {
      basic: '{{ basic(username, password) }}',
      nested: 'x {{ base64(base64(username + ":" + password)) }}',
      bearer: '{{ "Bearer " + token }}',
      otp: '{{ totp(totp_secret) }}',
      literal: '{{ base64("client:inline-secret") }}',
      public: '{{ base64(username) }} {{ uuid() }} {{ "a" + "b" }} {{ password }}',
    },
    scope,
    where,
    sink,
  );
  const pair = Buffer.from('alice:pw-123').toString('base64');
  expect(derived).toEqual(expect.arrayContaining([
    `Basic ${pair}`,
    'alice:pw-123',
    pair,
    Buffer.from(pair).toString('base64'),
    'Bearer tok-456',
    out.otp,
    Buffer.from('client:inline-secret').toString('base64'),
  ]));
  expect(out.otp).toMatch(/^\d{6}$/);
  expect(derived).not.toContain(Buffer.from('alice').toString('base64'));
  expect(derived).not.toContain('ab');
  expect(derived.some((value) => /^[0-9a-f-]{36}$/.test(value))).toBe(false);
});

test('a step whose templates expand past the limit fails naming the step, never building it all', () => {
  const big = 'x'.repeat(5 * 1024 * 1024);
  const error = thrown(() => expandTemplate({ a: '{{ v }}', b: '{{ v }}' }, { v: big }, where));
  expect(error.code).toBe('TEMPLATE_FUNCTION_FAILED');
  expect(error.message).toBe('the templates of this step expand to more than the 8.0 MiB of text a step may send');
  expect(error.path).toEqual(['procedures', 0, 'operations', 1, 'parameters', 'b']);
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'login', step: 1 });
});
