import { test, expect } from '@playwright/test';
import { expressionVariables, holdsTemplateBlock, parseTemplateExpression, scanTemplate, TemplateSyntaxError } from '../../src/core/template-expr.js';
import { templateNames } from '../../src/core/template-names.js';

test('expressions: variables, strings, numbers, concatenation and calls', () => {
  expect(parseTemplateExpression(' username ')).toEqual({ kind: 'var', name: 'username' });
  expect(parseTemplateExpression(`'a\\'b' + "c"`)).toEqual({ kind: 'concat', parts: [{ kind: 'string', value: "a'b" }, { kind: 'string', value: 'c' }] });
  expect(parseTemplateExpression('totp(seed, 8, 60, "SHA256")')).toEqual({
    kind: 'call',
    name: 'totp',
    args: [{ kind: 'var', name: 'seed' }, { kind: 'number', value: 8 }, { kind: 'number', value: 60 }, { kind: 'string', value: 'SHA256' }],
  });
  expect(expressionVariables(parseTemplateExpression('basic(user, password) + tenant.id + uuid()'))).toEqual(['user', 'password', 'tenant.id']);
  expect(templateNames({ h: 'Bearer {{ base64url(a + ":" + b) }}', q: '{{ now() }}&{{c}}' })).toEqual(['a', 'b', 'c']);
});

test('bad expressions: unknown functions, wrong arities and bad syntax say what, never the values', () => {
  const message = (source: string) => {
    try {
      parseTemplateExpression(source);
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateSyntaxError);
      return (error as Error).message;
    }
    throw new Error(`parsed: ${source}`);
  };
  expect(message('basci(u, p)')).toBe('unknown function basci() (the functions are base64(), base64url(), urlencode(), basic(), totp(), uuid(), now(), webauthn_assertion())');
  expect(message('basic(u)')).toBe('basic() takes 2 arguments (basic(user, password)), got 1');
  expect(message('totp()')).toBe('totp() takes 1 to 4 arguments (totp(secret[, digits, period, algorithm])), got 0');
  expect(message('uuid(x)')).toBe('uuid() takes 0 arguments (uuid()), got 1');
  expect(message('"s3cret')).toBe('a string is not closed at character 1 of the expression');
  expect(message('a b')).toBe('unexpected "b" at character 3 of the expression');
  expect(message('a +')).toBe('a value is missing at character 4 of the expression');
  expect(message('base64(a')).toBe('base64( is not closed at character 9 of the expression');
  expect(message('base64('.repeat(20) + 'a' + ')'.repeat(20))).toMatch(/nested deeper than 16/);
  expect(message('a'.repeat(3000))).toMatch(/longer than 2000 characters/);
});

test('scanTemplate: each {{ closes at the first }} after it; an unclosed {{ is reported where it starts', () => {
  expect(scanTemplate('a {{ x }} b {{y}}}')).toEqual({
    blocks: [{ start: 2, end: 9, source: ' x ' }, { start: 12, end: 17, source: 'y' }],
  });
  expect(scanTemplate('{{{a}} {{ b')).toEqual({ blocks: [{ start: 0, end: 6, source: '{a' }], unclosed: 7 });
  expect(scanTemplate('no template } {')).toEqual({ blocks: [] });
  expect(holdsTemplateBlock('x {{a}}')).toBe(true);
  expect(holdsTemplateBlock('x {{a} }')).toBe(false);
});

test('scanTemplate is linear: 80,000 unclosed {{ (10 s with the old regular expression) and 8 MiB of them', () => {
  for (const text of ['{{'.repeat(80_000), `${'{{ a }}'.repeat(10)}${'{{'.repeat(4 * 1024 * 1024)}`]) {
    const started = performance.now();
    const scan = scanTemplate(text);
    expect(scan.unclosed).toBeDefined();
    expect(holdsTemplateBlock(text.slice(-100_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  }
});
