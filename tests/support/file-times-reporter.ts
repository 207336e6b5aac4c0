import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** A file's tests together may take this long (seconds of test time), or the run fails. */
export const DEFAULT_FILE_BUDGET_S = 90;

/** Options of the reporter; each overrides its environment variable. */
export interface FileTimesOptions {
  /** Seconds a single file may take (`MULTIAUTH_FILE_BUDGET_S`; 90 when unset, 0 turns the check off). */
  budgetSeconds?: number;
  /** Whether a file over the budget fails the run; by default when `MULTIAUTH_FILE_BUDGET_S` is set. */
  enforce?: boolean;
  /** How many of the slowest files to print. */
  top?: number;
  /** Files (relative to the test folder, as the end of a run prints them) over the budget that are named but do not fail the run, each with the reason. */
  allowedOver?: Record<string, string>;
}

/**
 * One spec file's share of a run, as tests/README.md measures it: the sum of its tests' durations
 * and of the time each of its tests' worker slot spent before the test began (a worker's start,
 * `beforeAll` hooks and worker fixtures, which no test's duration holds).
 */
export interface FileTime {
  file: string;
  seconds: number;
  tests: number;
}

/**
 * Keeps the suite's time visible: at the end of a run it prints the slowest files (the sum of each
 * file's test durations, retries included) and names every file over the budget. When the budget
 * is enforced (`MULTIAUTH_FILE_BUDGET_S=90`), such a file marks the run failed, so a
 * slow file cannot creep in unnoticed; one spec file run by hand on a loaded machine only warns. The
 * run's exit code stays Playwright's own: a failed test fails it as before, and this reporter can
 * only turn a passed run into a failed one (`onEnd` returning `{ status: 'failed' }` makes
 * `playwright test` exit 1). `MULTIAUTH_FILE_TIMES=path` also writes every file's figures there as JSON.
 */
export default class FileTimesReporter implements Reporter {
  private readonly times = new Map<string, FileTime>();
  private readonly budgetSeconds: number;
  private readonly enforce: boolean;
  private readonly top: number;
  private readonly allowedOver: Record<string, string>;
  private rootDir = process.cwd();
  /** When each worker slot (`parallelIndex`) was last free: the run's start, then the end of its last test. */
  private readonly slotFree = new Map<number, number>();
  private started = Date.now();

  constructor(options: FileTimesOptions = {}) {
    const fromEnv = process.env.MULTIAUTH_FILE_BUDGET_S ? Number(process.env.MULTIAUTH_FILE_BUDGET_S) : undefined;
    const budget = options.budgetSeconds ?? fromEnv ?? DEFAULT_FILE_BUDGET_S;
    this.budgetSeconds = Number.isFinite(budget) && budget >= 0 ? budget : DEFAULT_FILE_BUDGET_S;
    this.enforce = options.enforce ?? fromEnv !== undefined;
    this.top = options.top ?? 10;
    this.allowedOver = options.allowedOver ?? {};
  }

  printsToStdio(): boolean {
    // The line or list reporter beside this one stays in charge of the console.
    return false;
  }

  onBegin(config: FullConfig): void {
    this.rootDir = config.rootDir;
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = relative(this.rootDir, test.location.file);
    const entry = this.times.get(file) ?? { file, seconds: 0, tests: 0 };
    const begin = result.startTime.getTime();
    const before = Math.max(0, begin - (this.slotFree.get(result.parallelIndex) ?? this.started));
    this.slotFree.set(result.parallelIndex, Math.max(begin + result.duration, this.slotFree.get(result.parallelIndex) ?? 0));
    entry.seconds += (before + result.duration) / 1000;
    if (result.retry === 0) entry.tests += 1;
    this.times.set(file, entry);
  }

  /** Every file's figures, slowest first. */
  slowest(): FileTime[] {
    return [...this.times.values()].sort((a, b) => b.seconds - a.seconds);
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const files = this.slowest();
    const out = process.env.MULTIAUTH_FILE_TIMES;
    if (out) writeFileSync(out, `${JSON.stringify(files.map((f) => ({ ...f, seconds: Math.round(f.seconds * 10) / 10 })), null, 2)}\n`);
    if (files.length === 0) return undefined;
    const lines = files.slice(0, this.top).map((f) => `  ${f.seconds.toFixed(1).padStart(7)} s  ${String(f.tests).padStart(3)} tests  ${f.file}`);
    console.log(`\nSlowest files (their tests' durations and the hooks and worker starts before them):\n${lines.join('\n')}`);
    const over = this.budgetSeconds > 0 ? files.filter((f) => f.seconds > this.budgetSeconds) : [];
    if (over.length === 0) return undefined;
    const failing = over.filter((f) => !Object.hasOwn(this.allowedOver, f.file));
    for (const f of over) {
      const allowed = Object.hasOwn(this.allowedOver, f.file) ? ` Allowed for now (${this.allowedOver[f.file]}).` : ' Split it or share what is expensive (tests/README.md, "Lanes and time").';
      console.log(`File over the time budget: ${f.file} took ${f.seconds.toFixed(1)} s, more than ${this.budgetSeconds} s.${allowed}`);
    }
    if (failing.length === 0) return undefined;
    if (!this.enforce) {
      console.log('(A warning: with MULTIAUTH_FILE_BUDGET_S set, the run fails on it.)');
      return undefined;
    }
    // Only a passed run is turned into a failed one; any other status is Playwright's own.
    return result.status === 'passed' ? { status: 'failed' } : undefined;
  }
}
