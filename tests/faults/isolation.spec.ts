import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { closeDispatchers } from '../../src/runtime/http/dispatcher.js';
import { freePort } from '../support/ports.js';
import { PASSWORD, startFaultServer, tokenFor, type FaultServer } from './fault-server.js';
import { faultPlan } from './fault-config.js';

/** One user's failing sign-in must not hold up, break or leak into another user's in the same plan. */
let faults: FaultServer;

test.beforeAll(async () => {
  faults = await startFaultServer();
});

test.afterAll(async () => {
  await faults.close();
  await closeDispatchers();
});

test('failing users fail alone: the others of the same plan sign in, at the same time and afterwards', async () => {
  const plan = faultPlan([
    { name: 'alice', url: `${faults.url}/500` },
    { name: 'bob', url: `${faults.url}/ok` },
    { name: 'carol', url: `http://127.0.0.1:${await freePort()}/login` },
    { name: 'dave', url: `${faults.url}/slow`, timeout: 1 },
    { name: 'erin', url: `${faults.url}/ok` },
    { name: 'frank', url: `${faults.url}/no-token` },
  ]);
  // One redactor for the whole run, as a worker has: every token met so far is a secret.
  const redactor = new Redactor();
  const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];
  const started = Date.now();
  const settled = await Promise.allSettled(names.map((name) => authenticate(plan, name, { redactor })));
  const elapsed = Date.now() - started;

  const outcome = Object.fromEntries(names.map((name, i) => [name, settled[i]]));
  for (const name of ['bob', 'erin']) {
    const result = outcome[name];
    expect(result?.status).toBe('fulfilled');
    if (result?.status === 'fulfilled') {
      expect(result.value.user).toBe(name);
      expect(result.value.headers.Authorization).toEqual([`Bearer ${tokenFor(name)}`]);
    }
  }
  const expected: Record<string, string> = { alice: 'AUTH_HTTP_STATUS', carol: 'AUTH_NETWORK', dave: 'AUTH_TIMEOUT', frank: 'EXTRACTION_NOT_FOUND' };
  for (const [name, code] of Object.entries(expected)) {
    const result = outcome[name];
    expect(result?.status, name).toBe('rejected');
    if (result?.status !== 'rejected') continue;
    const error = result.reason as MultiAuthError;
    expect(error).toBeInstanceOf(MultiAuthError);
    expect(error.code).toBe(code);
    expect(error.context?.user).toBe(name);
    const text = redactor.redact(error.render());
    expect(text).toContain(`user "${name}", procedure "sign-in-${name}"`);
    for (const other of names.filter((n) => n !== name)) expect(text).not.toContain(`"${other}"`);
    for (const secret of [PASSWORD, ...names.map(tokenFor)]) expect(text).not.toContain(secret);
  }
  // The slowest failure (dave's 1 s timeout) bounds the whole batch: nobody waited for anybody.
  expect(elapsed).toBeLessThan(3_000);

  const again = await authenticate(plan, 'bob', { redactor });
  expect(again.headers.Authorization).toEqual([`Bearer ${tokenFor('bob')}`]);
});
