import { test, expect } from '@playwright/test';
import { parseCurl } from '../../../src/compile/curl/index.js';
import { goldenCases } from './golden.js';

const cases = goldenCases();

test('the golden corpus holds at least 40 real-world commands', () => {
  expect(cases.length).toBeGreaterThanOrEqual(40);
});

for (const { name, command, expected } of cases) {
  test(`golden ${name}`, () => {
    expect(parseCurl(command)).toEqual(expected);
  });
}
