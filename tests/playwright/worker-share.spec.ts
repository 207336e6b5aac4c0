import { expect, test } from '@playwright/test';
import { cpus } from 'node:os';
import { shareFromEnv, shareWarning, shareWorkers, workersFromArgv, WORKER_SHARE_ENV } from '../../src/playwright/worker-share.js';

const half = Math.max(1, Math.floor(cpus().length / 2));

test('the run\'s workers are read from the command line as Playwright reads them', () => {
  expect(workersFromArgv(['node', 'cli.js', 'test', '--workers', '4'])).toBe(4);
  expect(workersFromArgv(['test', '--workers=3'])).toBe(3);
  expect(workersFromArgv(['test', '-j', '2'])).toBe(2);
  expect(workersFromArgv(['test', '-j5'])).toBe(5);
  expect(workersFromArgv(['test', '--workers=50%'])).toBe(half);
  expect(workersFromArgv(['test', '--workers=2', '--debug'])).toBe(1);
  expect(workersFromArgv(['test', '--workers=2', '-j', '6'])).toBe(6);
  expect(workersFromArgv(['test'])).toBeUndefined();
  expect(workersFromArgv(['test', '--workers', 'many'])).toBeUndefined();
  expect(workersFromArgv(['test', '--workers=0'])).toBeUndefined();
  expect(workersFromArgv(['test', '--workers'])).toBeUndefined();
});

test('users that divide evenly among the workers get their share each; otherwise nothing is limited', () => {
  expect(shareWorkers(8, { argv: ['-j', '2'] })).toEqual({ assumed: 2, from: 'command line', users: 8, perUser: 1 });
  expect(shareWorkers(2, { argv: ['-j', '4'] })).toEqual({ assumed: 4, from: 'command line', users: 2, perUser: 2 });
  expect(shareWorkers(2, { argv: ['-j', '2'] }).perUser).toBe(1);
  // 3 users on 2 workers: the third would run alone on one worker while the other waits.
  expect(shareWorkers(3, { argv: ['-j', '2'] }).perUser).toBeUndefined();
  expect(shareWorkers(4, { argv: ['-j', '6'] }).perUser).toBeUndefined();
  expect(shareWorkers(1, { argv: ['-j', '4'] }).perUser).toBeUndefined();
  expect(shareWorkers(4, { argv: ['-j', '1'] }).perUser).toBeUndefined();
  // The config's own workers, passed in; the command line overrides them as it overrides the config.
  expect(shareWorkers(4, { argv: [], given: 2 })).toEqual({ assumed: 2, from: 'option', users: 4, perUser: 1 });
  expect(shareWorkers(4, { argv: ['--workers=4'], given: 2 })).toEqual({ assumed: 4, from: 'command line', users: 4, perUser: 1 });
  expect(shareWorkers(4, { argv: [], given: 'lots' }).from).toBe("Playwright's default");
  expect(shareWorkers(4, { argv: [] })).toMatchObject({ assumed: half, from: "Playwright's default" });
});

test('a worker warns when the assumed workers kept some of the run\'s idle, and only then', () => {
  const share = shareWorkers(2, { argv: [], given: 2 });
  const warning = shareWarning(share, 4);
  expect(warning).toBe(
    "authProjects limited each of the 2 users' projects to 1 worker, assuming 2 workers (option), but this run has 4: at most 2 run at once. " +
      'Tell authProjects the config\'s workers: authProjects(project, { workers: 4 }).\n',
  );
  expect(shareWarning(share, 2)).toBeUndefined();
  // Fewer workers than assumed: every worker still has a user to run.
  expect(shareWarning(share, 1)).toBeUndefined();
  expect(shareWarning(shareWorkers(3, { argv: [], given: 2 }), 8)).toBeUndefined();
});

test('the share the runner leaves its workers reads back, and anything else in the variable is none', () => {
  const share = shareWorkers(8, { argv: ['-j', '2'] });
  expect(shareFromEnv({ [WORKER_SHARE_ENV]: JSON.stringify(share) })).toEqual(share);
  for (const raw of ['', 'not json', '[]', '{"assumed":"2","from":"option","users":2}', '{"assumed":2,"from":"elsewhere","users":2}', 'x'.repeat(501)]) {
    expect(shareFromEnv({ [WORKER_SHARE_ENV]: raw })).toBeUndefined();
  }
  // A `__proto__` key is a key like any other: read past, nothing else gets it.
  expect(shareFromEnv({ [WORKER_SHARE_ENV]: '{"__proto__":{"polluted":1},"assumed":2,"from":"option","users":2}' })).toEqual({ assumed: 2, from: 'option', users: 2, perUser: undefined });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(shareFromEnv({})).toBeUndefined();
});
