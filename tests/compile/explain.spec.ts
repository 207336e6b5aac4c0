import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { Redactor, MASK } from '../../src/core/redactor.js';
import { explainPlan, planSecrets } from '../../src/compile/index.js';
import { compileYaml } from './compile-helpers.js';

const input = new URL('./golden/explain.yaml', import.meta.url);
const golden = new URL('./golden/explain.txt', import.meta.url);

/** Set UPDATE_GOLDEN=1 to rewrite the golden file after an intended change, then review the diff. */
test('explain output matches the golden file', () => {
  const text = explainPlan(compileYaml(readFileSync(input, 'utf8')), new Redactor());
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, text);
  expect(text).toBe(readFileSync(golden, 'utf8'));
});

test('no secret of the config appears in the explain output', () => {
  const yaml = readFileSync(input, 'utf8');
  const text = explainPlan(compileYaml(yaml), new Redactor());
  const secrets = [...yaml.matchAll(/[\w-]*secret[\w-]*/g)].map((m) => m[0]).filter((s) => s !== 'client_secret');
  expect(secrets.length).toBeGreaterThan(15);
  for (const secret of secrets) expect(text, secret).not.toContain(secret);
  expect(text).toContain(MASK);
});

test('explainPlan registers the plan secrets in the redactor it is given', () => {
  const plan = compileYaml(readFileSync(input, 'utf8'));
  const redactor = new Redactor();
  explainPlan(plan, redactor);
  for (const secret of planSecrets(plan)) expect(redactor.redact(`x ${secret} y`)).toBe(`x ${MASK} y`);
});
