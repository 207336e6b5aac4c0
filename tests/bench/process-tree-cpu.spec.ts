import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { treeCpu } from '../../bench/process-tree-cpu.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

/** Spends `ms` of its own CPU (however busy the machine), then goes on. */
const burn = (ms: number) => `const start = process.cpuUsage(); for (let u = { user: 0, system: 0 }; u.user + u.system < ${ms * 1000}; ) u = process.cpuUsage(start);`;

async function run(argv: string[], cgroups = true): Promise<{ cpuMs: number; source: string; stdout: string; group?: string }> {
  const tree = treeCpu(argv, tempDir(), { cgroups });
  const child = spawn(tree.command, tree.args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  return { cpuMs: await tree.cpuMs(), source: tree.source, stdout, ...(tree.group ? { group: tree.group } : {}) };
}

test('counts the CPU of the command it wraps, and hands it its arguments untouched', async () => {
  const args = ['a b', '"quoted"', '$HOME', '`id`', ';exit 3'];
  const seen = await run([process.execPath, '-e', `${burn(300)} process.stdout.write(JSON.stringify(process.argv.slice(1)))`, ...args]);
  expect(JSON.parse(seen.stdout)).toEqual(args);
  expect(seen.cpuMs).toBeGreaterThanOrEqual(300);
  expect(seen.cpuMs).toBeLessThan(5000);
});

// The bench runs as root on this machine (the README's commands do), where a cgroup counts what
// GNU time cannot: Chromium's helpers, which no process of the run waits for.
test('counts a process its command started and no one waited for, and removes its group', async () => {
  const orphan = `${JSON.stringify(process.execPath)} -e ${JSON.stringify(burn(400))} &`;
  const seen = await run(['/bin/sh', '-c', `${orphan} exit 0`]);
  expect(seen.source).toBe('cgroup');
  expect(seen.cpuMs).toBeGreaterThanOrEqual(400);
  expect(existsSync(seen.group as string)).toBe(false);
});

test('without cgroups, GNU time counts the command and what it waited for, not an orphan', async () => {
  const waited = await run(['/bin/sh', '-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(burn(300))}`], false);
  expect(waited.source).toBe('rusage');
  expect(waited.cpuMs).toBeGreaterThanOrEqual(300);
  const orphaned = await run(['/bin/sh', '-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(burn(300))} & exit 0`], false);
  expect(orphaned.cpuMs).toBeLessThan(100);
});
