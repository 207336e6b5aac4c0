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

test('proxy passwords are masked, top-level and per operation, whatever their length', () => {
  const plan = compileYaml(`
proxy: http://corp:top-proxy-pw@proxy.test:3128
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "http://127.0.0.1:9/login", method: POST, proxy: "http://op:op%2Fproxy%40pw@proxy.test:8080" }
      - tech: browser
        parameters:
          options: { proxy: "http://br:pw@proxy.test:3129" }
          project: { tests: [{ id: t1, name: t, commands: [{ id: c1, command: open, target: "https://site:page-pw@app.test/" }] }] }
    injections: []
users:
  - { name: admin, procedure: login, credentials: { username: alice, password: "{{x}}" } }
`);
  const text = explainPlan(plan, new Redactor());
  for (const secret of ['top-proxy-pw', 'op%2Fproxy%40pw', 'op/proxy@pw', ':pw@', 'page-pw']) expect(text, secret).not.toContain(secret);
  expect(text).toContain(`proxy of every sign-in request: http://corp:${MASK}@proxy.test:3128`);
  expect(text).toContain(`proxy http://op:${MASK}@proxy.test:8080`);
  expect(text).toContain(`proxy http://br:${MASK}@proxy.test:3129`);
  expect(planSecrets(plan)).toEqual(expect.arrayContaining(['top-proxy-pw', 'op/proxy@pw', 'op:op/proxy@pw', 'page-pw']));
});
