import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** A file's tests together may take this long (seconds of test time), or the run fails. */
export const DEFAULT_FILE_BUDGET_S = 90;

/** Options of the reporter, as given in playwright.config.ts (`['./tests/support/file-times-reporter.ts', {...}]`). */
export interface FileTimesOptions {
  /** Seconds a single file may take; `MULTIAUTH_FILE_BUDGET_S` overrides, 0 turns the check off. */
  budgetSeconds?: number;
  /** How many of the slowest files to print. */
  top?: number;
}

/** One spec file's share of a run: the sum of its tests' result durations, as tests/README.md measures it. */
export interface FileTime {
  file: string;
  seconds: number;
  tests: number;
}

/**
 * Keeps the suite's time visible: at the end of a run it prints the slowest files (the sum of each
 * file's test durations, retries included), and marks the run failed when one file passes the
 * budget, naming it, so a slow file cannot creep in unnoticed. The run's exit code stays
 * Playwright's own: a failed test fails it as before, and this reporter can only turn a passed run
 * into a failed one (`onEnd` returning `{ status: 'failed' }` makes `playwright test` exit 1).
 * `MULTIAUTH_FILE_TIMES=path` also writes every file's figures there as JSON.
 */
export default class FileTimesReporter implements Reporter {
  private readonly times = new Map<string, FileTime>();
  private readonly budgetSeconds: number;
  private readonly top: number;
  private rootDir = process.cwd();

  constructor(options: FileTimesOptions = {}) {
    const fromEnv = process.env.MULTIAUTH_FILE_BUDGET_S;
    const budget = fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : (options.budgetSeconds ?? DEFAULT_FILE_BUDGET_S);
    this.budgetSeconds = Number.isFinite(budget) && budget >= 0 ? budget : DEFAULT_FILE_BUDGET_S;
    this.top = options.top ?? 10;
  }

  printsToStdio(): boolean {
    // The line or list reporter beside this one stays in charge of the console.
    return false;
  }

  onBegin(config: FullConfig): void {
    this.rootDir = config.rootDir;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = relative(this.rootDir, test.location.file);
    const entry = this.times.get(file) ?? { file, seconds: 0, tests: 0 };
    entry.seconds += result.duration / 1000;
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
    console.log(`\nSlowest files (sum of test durations):\n${lines.join('\n')}`);
    const over = this.budgetSeconds > 0 ? files.filter((f) => f.seconds > this.budgetSeconds) : [];
    if (over.length === 0) return undefined;
    for (const f of over) {
      console.log(`File over the time budget: ${f.file} took ${f.seconds.toFixed(1)} s, more than ${this.budgetSeconds} s. Split it or share what is expensive (tests/README.md, "Time").`);
    }
    // Only a passed run is turned into a failed one; any other status is Playwright's own.
    return result.status === 'passed' ? { status: 'failed' } : undefined;
  }
}
