import { test, expect } from '@playwright/test';
import { accessCell, cellProblem, cellText, classifyAnswer } from '../../../src/runtime/access/matrix.js';
import { matrixHtml, matrixMarkdown, matrixText } from '../../../src/runtime/access/render.js';
import type { DenyRules, ObservedMatrix } from '../../../src/runtime/access/matrix.js';

// Issue 26: how an answer counts (docs/access.md "Classification"), and the tables made of cells.
const URL_ = 'https://a.test/api/x?token=s3cr3t';
const rules: DenyRules = { deny: [401, 403], loginRedirect: [] };

test('statuses, login redirects, not_match and missing answers are classified as documented', () => {
  const outcome = (answer: Parameters<typeof classifyAnswer>[0], r = rules) => classifyAnswer(answer, r).outcome;
  expect(outcome({ url: URL_, status: 200 })).toBe('allow');
  expect(outcome({ url: URL_, status: 204 })).toBe('allow');
  expect(outcome({ url: URL_, status: 403 })).toBe('deny');
  expect(outcome({ url: URL_, status: 401 })).toBe('deny');
  expect(outcome({ url: URL_, status: 404 })).toBe('error');
  expect(outcome({ url: URL_, status: 404 }, { ...rules, deny: [401, 403, 404] })).toBe('deny');
  expect(outcome({ url: URL_, status: 500 })).toBe('error');
  expect(outcome({ url: URL_, failure: 'network error' })).toBe('error');
  // A redirect: to the login page is a deny, elsewhere an allow; the config's globs win over the default guess.
  expect(classifyAnswer({ url: URL_, status: 302, location: '/accounts/login/?next=/x' }, rules)).toEqual({ outcome: 'deny', status: 302, why: 'a redirect to the login page (/accounts/login/)' });
  expect(outcome({ url: URL_, status: 302, location: '/dashboard' })).toBe('allow');
  expect(outcome({ url: URL_, status: 302, location: '/enter' }, { ...rules, loginRedirect: ['/enter'] })).toBe('deny');
  expect(outcome({ url: URL_, status: 302, location: '/login' }, { ...rules, loginRedirect: ['/enter'] })).toBe('allow');
  // A 200 that is the page of someone signed out.
  expect(outcome({ url: URL_, status: 200, body: '<a>Sign in</a>' }, { ...rules, notMatch: 'Sign in' })).toBe('deny');
  expect(outcome({ url: URL_, status: 200, body: '{"ok":true}' }, { ...rules, notMatch: 'Sign in' })).toBe('allow');
});

test('a cell is unexpected unless its outcome (or exact status) is the expected one; the sentence names the cell without query values', () => {
  expect(accessCell({ outcome: 'allow', status: 200 }, 'allow').unexpected).toBe(false);
  expect(accessCell({ outcome: 'deny', status: 404 }, 404).unexpected).toBe(false);
  expect(accessCell({ outcome: 'allow', status: 200 }, 404).unexpected).toBe(true);
  expect(accessCell({ outcome: 'error', status: 500 }, 'deny').unexpected).toBe(true);
  const cell = accessCell({ outcome: 'allow', status: 200 }, 'deny');
  expect(cellText(cell)).toBe('unexpected allow 200');
  expect(cellText(accessCell({ outcome: 'deny', status: 403 }, 'allow'))).toBe('unexpected deny 403');
  expect(cellText(accessCell({ outcome: 'error', why: 'timed out' }, 'allow'))).toBe('error (no answer)');
  expect(cellProblem('editor', { method: 'DELETE', url: URL_ }, cell))
    .toBe('editor was allowed to DELETE https://a.test/api/x?token=…: expected deny — possible broken access control (HTTP 200)');
});

test('text, Markdown and HTML tables show every cell, mark the unexpected ones and escape names', () => {
  const observed: ObservedMatrix = {
    users: ['admin', 'ed|<b>'],
    requests: ['list users', 'delete'],
    cells: {
      admin: { 'list users': accessCell({ outcome: 'allow', status: 200 }, 'allow'), delete: accessCell({ outcome: 'allow', status: 204 }, 'allow') },
      'ed|<b>': { 'list users': accessCell({ outcome: 'allow', status: 200 }, 'deny') },
    },
  };
  expect(matrixText(observed)).toBe([
    'request     admin      ed|<b>',
    'list users  allow 200  unexpected allow 200',
    'delete      allow 204  not run',
    '3 cells: 2 as expected, 1 unexpected (1 unexpected allow)',
    '',
  ].join('\n'));
  const markdown = matrixMarkdown(observed);
  expect(markdown).toContain('| request | admin | ed\\|\\<b\\> |');
  expect(markdown).toContain('| list users | allow 200 | **unexpected allow 200** |');
  const html = matrixHtml(observed);
  expect(html).toContain('<th>ed&#124;&#60;b&#62;</th>'.replace('&#124;', '|'));
  expect(html).toContain('<td class="unexpected" title="expected deny">unexpected allow 200</td>');
  expect(html).not.toContain('<b>');
});
