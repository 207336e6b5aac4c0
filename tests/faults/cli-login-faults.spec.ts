import { test, expect } from '@playwright/test';
import { MASK } from '../../src/core/redactor.js';
import { runCliAsync, STACK_FRAME } from '../support/cli.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';
import { freePort } from '../support/ports.js';
import { PASSWORD, startFaultServer, tokenFor, type FaultServer } from './fault-server.js';
import { faultYaml } from './fault-config.js';

/** `multiauth login` in front of the faults: exit 1 and one clear error for the failing user, exit 0 for the others. */
let faults: FaultServer;

test.beforeAll(async () => {
  faults = await startFaultServer();
});

test.afterAll(async () => {
  await faults.close();
  removeTempDirs();
});

test('login: a failing user exits 1 with one clear error; another user of the same config exits 0', async () => {
  const dir = writeFiles({
    'multiauth.yaml': faultYaml([
      { name: 'alice', url: `${faults.url}/429-always` },
      { name: 'bob', url: `${faults.url}/ok` },
      { name: 'carol', url: `http://127.0.0.1:${await freePort()}/login` },
    ]),
  });

  const alice = await runCliAsync(['login', 'alice'], { cwd: dir });
  expect(alice.code).toBe(1);
  expect(alice.stdout).toBe('');
  expect(alice.stderr).toMatch(/^the server answered HTTP 429 \(Too Many Requests\) after 2 attempts\n/);
  expect(alice.stderr).toContain('while signing in user "alice", procedure "sign-in-alice", step 1 (http)');
  expect(alice.stderr.match(/\[AUTH_HTTP_STATUS\]/g)).toHaveLength(1);
  expect(alice.stderr).not.toMatch(STACK_FRAME);
  expect(alice.stderr).not.toContain(PASSWORD);
  expect(alice.elapsedMs).toBeLessThan(10_000);

  const carol = await runCliAsync(['login', 'carol'], { cwd: dir, env: { MULTIAUTH_RETRIES: '0' } });
  expect(carol.code).toBe(1);
  expect(carol.stderr).toMatch(/^request failed: ECONNREFUSED\n/);
  expect(carol.stderr).toContain('[AUTH_NETWORK]');
  expect(carol.stderr).not.toMatch(STACK_FRAME);

  const bob = await runCliAsync(['login', 'bob'], { cwd: dir });
  expect(bob.stderr).toBe('');
  expect(bob.code).toBe(0);
  expect(bob.stdout).toContain(`Authorization: Bearer ${MASK}`);
  expect(bob.stdout + bob.stderr + alice.stderr + carol.stderr).not.toContain(tokenFor('bob'));
});
