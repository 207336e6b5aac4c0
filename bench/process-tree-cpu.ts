import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How a {@link treeCpu} measurement counts: every process of a cgroup, or the rusage of the reaped ones. */
export type TreeCpuSource = 'cgroup' | 'rusage';

/** A command wrapped so that the CPU time of it and every process it starts can be read at its end. */
export interface TreeCpu {
  /** What to spawn in place of the command: the wrapper, then the command. */
  command: string;
  args: string[];
  source: TreeCpuSource;
  /** The cgroup the run counts in, when `source` is `cgroup`. */
  group?: string;
  /** User + system CPU of the whole tree (ms), once the command has exited; the group is removed. */
  cpuMs(): Promise<number>;
}

/** A cgroup hierarchy that counts CPU: v2's `cpu.stat` (usage_usec), or v1's `cpuacct.usage` (ns). */
interface Hierarchy {
  root: string;
  usageMs(group: string): number;
}

const HIERARCHIES: Hierarchy[] = [
  {
    root: '/sys/fs/cgroup',
    usageMs: (group) => Number(/^usage_usec (\d+)$/m.exec(readFileSync(join(group, 'cpu.stat'), 'utf8'))?.[1] ?? NaN) / 1000,
  },
  {
    root: '/sys/fs/cgroup/cpuacct',
    usageMs: (group) => Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8').trim()) / 1e6,
  },
];

/** How long the bench waits for a run's last processes (a browser's helpers) to leave its group. */
const DRAIN_MS = 3000;

let groups = 0;

/**
 * Wraps `argv` so that its CPU time, with every process it starts, can be read when it ends. In a
 * cgroup of its own where the machine lets the bench make one (root, cgroup v1 `cpuacct` or v2):
 * every process counts there, browsers included, whatever reaps them. Chromium's renderers and
 * helpers are children of its zygote, which no process of the run waits for: GNU time, the
 * fallback, counts only the processes their parents reaped (about 2 CPU-s of a 10 CPU-s run of the
 * headline suite escape it, on either side). `cgroups: false` takes GNU time on any machine.
 *
 * @example
 * const tree = treeCpu(['node', 'cli.js', 'test'], dir);
 * const child = spawn(tree.command, tree.args);
 * await closed(child);
 * const ms = await tree.cpuMs();
 */
export function treeCpu(argv: string[], scratchDir: string, options: { cgroups?: boolean } = {}): TreeCpu {
  for (const hierarchy of options.cgroups === false ? [] : HIERARCHIES) {
    const group = join(hierarchy.root, `multiauth-bench-${process.pid}-${++groups}`);
    if (!usable(hierarchy, group)) continue;
    return {
      // The shell joins the group before it becomes the command: nothing the run starts escapes it.
      command: '/bin/sh',
      args: ['-c', 'echo $$ > "$0" && exec "$@"', join(group, 'cgroup.procs'), ...argv],
      source: 'cgroup',
      group,
      cpuMs: async () => {
        const procs = join(group, 'cgroup.procs');
        for (const end = Date.now() + DRAIN_MS; Date.now() < end && readFileSync(procs, 'utf8').trim() !== ''; ) await sleep(20);
        const ms = hierarchy.usageMs(group);
        try {
          rmdirSync(group);
        } catch {
          // A process outlived the wait: its group stays behind (every run has a group of its own).
        }
        return Math.round(ms);
      },
    };
  }
  const file = join(scratchDir, 'cpu.txt');
  // An earlier run's figure must not stand in for this one's.
  rmSync(file, { force: true });
  return {
    command: '/usr/bin/time',
    args: ['-o', file, '-f', '%U %S', ...argv],
    source: 'rusage',
    cpuMs: async () => {
      // None when GNU time itself was killed (a hung run): the run's own error says what happened.
      if (!existsSync(file)) return NaN;
      const [user, system] = readFileSync(file, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
      return Math.round(((user ?? 0) + (system ?? 0)) * 1000);
    },
  };
}

/** Whether the bench can make `group` and read its usage (root on a machine with that hierarchy). */
function usable(hierarchy: Hierarchy, group: string): boolean {
  if (!existsSync(join(hierarchy.root, 'cgroup.procs'))) return false;
  try {
    mkdirSync(group);
  } catch {
    return false;
  }
  try {
    if (Number.isFinite(hierarchy.usageMs(group))) return true;
  } catch {
    // v2 without cpu.stat (an old kernel): no count to read.
  }
  rmdirSync(group);
  return false;
}
