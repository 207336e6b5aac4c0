import { expect, test } from '@playwright/test';
import { BrowserVariables, expandKeys, expandScript, expandText, variableText } from '../../../../src/runtime/protocols/browser/expand.js';
import { isMultiAuthError } from '../../../../src/core/errors.js';

const where = { user: 'alice', procedure: 'login', step: 0, path: ['procedures', 0, 'operations', 0, 'parameters', 'project', 'tests', 0, 'commands', 2, 'value'] };

function vars(scope: Record<string, string> = {}): BrowserVariables {
  return new BrowserVariables(scope);
}

test('expandText: ${name} and {{name}} in one pass, trimmed, ${nbsp}', () => {
  const v = vars({ user: 'alice', password: '${user} {{user}}' });
  expect(expandText('  hi ${user} / {{ user }}  ', v, where)).toBe('hi alice / alice');
  expect(expandText('{{password}}', v, where)).toBe('${user} {{user}}');
  expect(expandText('${password}', v, where)).toBe('${user} {{user}}');
  expect(expandText('a${nbsp}b', v, where)).toBe('a\u00a0b');
});

test('expandText: an unknown variable is an error naming it and the command path, in either syntax', () => {
  for (const text of ['${missing}', '{{missing}}']) {
    let caught: unknown;
    try {
      expandText(text, vars({ secret: 'hunter22' }), where);
    } catch (error) {
      caught = error;
    }
    expect(isMultiAuthError(caught) && caught.code).toBe('TEMPLATE_UNKNOWN_VARIABLE');
    const error = caught as Error & { path: unknown[]; render(): string };
    expect(error.message).toContain('missing');
    expect(error.path).toEqual(where.path);
    expect(error.render()).not.toContain('hunter22');
  }
});

test('variables set during the step are returned as text; JSON values as JSON', () => {
  const v = vars({ user: 'alice' });
  v.set('obj', { a: [1] });
  v.set('n', 3);
  v.set('s', 'text');
  expect(v.stored()).toEqual({ obj: '{"a":[1]}', n: '3', s: 'text' });
  expect(expandText('${obj}', v, where)).toBe('{"a":[1]}');
  expect(variableText(undefined)).toBe('');
  expect(variableText(null)).toBe('null');
});

test('expandKeys: special keys, modifiers, and text from variables typed as text', () => {
  const v = vars({ password: 'p${KEY_ENTER}', KEY_CUSTOM: 'custom' });
  expect(expandKeys('{{password}}${KEY_TAB}x${KEY_SHIFT}y${KEY_NULL}${KEY_CUSTOM}${password}', v, where)).toEqual([
    { kind: 'text', text: 'p${KEY_ENTER}' },
    { kind: 'press', key: 'Tab' },
    { kind: 'text', text: 'x' },
    { kind: 'modifier', key: 'Shift' },
    { kind: 'text', text: 'y' },
    { kind: 'release' },
    { kind: 'text', text: 'custom' },
    { kind: 'text', text: 'p${KEY_ENTER}' },
  ]);
  expect(() => expandKeys('${KEY_NOPE}', v, where)).toThrow('unknown variable ${KEY_NOPE}');
});

test('expandScript: ${name} becomes an argument, unknown ${…} stays (template literals), {{name}} is text', () => {
  const v = vars({ token: 'a"b', name: 'alice' });
  expect(expandScript('return ${token} + ${token} + `${1 + 1}` + "{{name}}"', v, where)).toEqual({
    source: 'return arguments[0] + arguments[0] + `${1 + 1}` + "alice"',
    args: ['a"b'],
  });
});
