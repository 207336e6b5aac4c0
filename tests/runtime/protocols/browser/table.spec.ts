import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { BROWSER_COMMANDS, UNSUPPORTED_COMMANDS } from '../../../../src/runtime/protocols/browser/commands.js';
import { renderCommandTable } from './command-table.js';

const HERE = new URL('.', import.meta.url);

test('docs/browser.md lists exactly the commands of the table', () => {
  const doc = readFileSync(new URL('../../../../docs/browser.md', import.meta.url), 'utf8');
  const listed = /<!-- commands:start -->\n([\s\S]*?)\n<!-- commands:end -->/.exec(doc)?.[1];
  expect(listed, 'regenerate the table with renderCommandTable() (tests/runtime/protocols/browser/command-table.ts)').toBe(
    renderCommandTable(),
  );
});

test('every command of the table is exercised by a test in this folder', () => {
  const sources = readdirSync(HERE)
    .filter((file) => file.endsWith('.spec.ts') && file !== 'table.spec.ts' && file !== 'validate.spec.ts')
    .map((file) => readFileSync(new URL(file, HERE), 'utf8'))
    .join('\n');
  // commands-assert.spec.ts runs every assert* it lists together with its verify* twin.
  const assertions = readFileSync(new URL('commands-assert.spec.ts', HERE), 'utf8');
  const untested = Object.keys(BROWSER_COMMANDS).filter((name) => {
    if (sources.includes(`'${name}'`)) return false;
    const twin = name.replace(/^verify/, 'assert');
    return !(name.startsWith('verify') && assertions.includes(`'${twin}'`));
  });
  expect(untested).toEqual([]);
});

test('no command is both supported and refused', () => {
  expect(Object.keys(UNSUPPORTED_COMMANDS).filter((name) => Object.hasOwn(BROWSER_COMMANDS, name))).toEqual([]);
});
