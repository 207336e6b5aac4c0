import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type TestInfo } from '@playwright/test';
import { main, type CliIo } from '../../src/cli/main.js';
import { openConfig } from '../../src/sessions/open-config.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { runCliAsync, STACK_FRAME } from '../support/cli.js';
import { ROOT } from '../support/root.js';
import { fuzzEnv, loadCorpus } from './corpus.js';
import { makeCase, type FuzzCase } from './mutate.js';
import { fuzzSeed, seededRandom } from './prng.js';
import { preflight } from '../../src/runtime/engine/preflight.js';

/**
 * `multiauth validate` on random and mutated configs (issue 8, bad input): it must never crash
 * (exit 0 or 2 only), never hang, never print a stack trace or "internal error", and every
 * rejection must be a MultiAuthError. The seed is printed; `MULTIAUTH_FUZZ_SEED=<seed>` replays a
 * run, `MULTIAUTH_FUZZ_CASES=<n>` changes how many in-process cases run (default 2500).
 */
const corpus = loadCorpus();
const env = fuzzEnv(corpus);
const seed = fuzzSeed(process.env);
const IN_PROCESS_CASES = Number(process.env.MULTIAUTH_FUZZ_CASES ?? 2_500);
/** Cases of the CLI test: each runs in-process, the heaviest of them through the built command too. */
const CLI_CASES = 24;
const SPAWNED_CASES = 6;
/** In-process a case cannot be interrupted, so a slow one is found when it ends; spawned ones are killed. */
const CASE_LIMIT_MS = 5_000;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Process warnings emitted meanwhile (in-process runs only; a child prints them on stderr). */
  warnings?: string[];
}

/** What is wrong with one run of `validate`, or undefined when it behaved. */
function verdict(outcome: Outcome): string | undefined {
  const output = outcome.stdout + outcome.stderr;
  if (outcome.code !== 0 && outcome.code !== 2) return `exit code ${outcome.code}`;
  if (STACK_FRAME.test(output)) return 'a stack trace was printed';
  if (/internal error/i.test(output)) return '"internal error" was printed';
  if (/\(node:\d+\) \w*Warning/.test(output)) return 'a Node warning was printed';
  if (outcome.warnings?.length) return `a process warning was emitted: ${outcome.warnings.join('; ').slice(0, 300)}`;
  if (outcome.ms > CASE_LIMIT_MS) return `took ${Math.round(outcome.ms)} ms (limit ${CASE_LIMIT_MS})`;
  if (outcome.code === 0 && !/: \d+ users?, \d+ procedures? OK/.test(outcome.stdout)) return 'exit 0 without the OK line';
  // A rejection is printed one way or the other, both from a MultiAuthError: issues with a count, or a rendered error with its code.
  if (outcome.code === 2 && !/(: \d+ errors?(, \d+ warnings?)?|\[[A-Z_]+\])\n$/.test(outcome.stderr)) return 'exit 2 without a config error';
  return undefined;
}

function report(index: number, fuzzCase: FuzzCase, problem: string, outcome: Outcome): string {
  return [
    `case ${index} (seed ${seed}; replay with MULTIAUTH_FUZZ_SEED=${seed}): ${problem}`,
    `  made by: ${fuzzCase.how.join(' | ')}`,
    `  stderr: ${outcome.stderr.slice(0, 1_500)}`,
  ].join('\n');
}

/**
 * Writes `file` anew, removing it first: ext4 flushes a file truncated and written again to disk as
 * it is closed (its `auto_da_alloc`), 6 ms a write on the project's machine, a minute of the loop.
 */
function rewriteFile(file: string, data: string | Buffer): void {
  rmSync(file, { force: true });
  writeFileSync(file, data);
}

function announceSeed(testInfo: TestInfo): void {
  testInfo.annotations.push({ type: 'fuzz seed', description: `MULTIAUTH_FUZZ_SEED=${seed}` });
  console.log(`fuzz seed ${seed} (replay: MULTIAUTH_FUZZ_SEED=${seed})`);
}

test('validate in-process: thousands of mutated configs, only exit 0 or 2, every rejection a MultiAuthError', async ({}, testInfo) => {
  test.setTimeout(150_000);
  announceSeed(testInfo);
  const random = seededRandom(seed);
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-fuzz-'));
  const failures: string[] = [];
  const codes = { 0: 0, 2: 0 };
  // A process warning would reach the user's terminal (and could quote the config): none may be emitted.
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  process.on('warning', onWarning);
  try {
    for (let index = 0; index < IN_PROCESS_CASES && failures.length < 5; index++) {
      const fuzzCase = makeCase(random, corpus);
      const file = join(dir, `case.${fuzzCase.ext}`);
      rewriteFile(file, fuzzCase.bytes);
      // The case on disk under test-results, so that a hang (caught only by the test timeout) leaves it behind.
      rewriteFile(testInfo.outputPath('current-case.txt'), `${fuzzCase.how.join('\n')}\n`);
      const outcome = await validateInProcess(file, dir);
      const code = outcome.code;
      let problem = verdict(outcome);
      // The same pipeline without the CLI around it (every fourth rejection, for time): what it throws must be a MultiAuthError.
      if (!problem && code === 2 && codes[2] % 4 === 0) {
        try {
          openConfig({ file, baseDir: dir, env, notFoundHint: '', preflight });
        } catch (error) {
          if (!(error instanceof MultiAuthError)) problem = `openConfig threw ${String(error)}`;
        }
      }
      // Also those of openConfig, and not again for the next case once the verdict named them.
      const emitted = warnings.splice(0);
      if (!problem && emitted.length) problem = `a process warning was emitted: ${emitted.join('; ').slice(0, 300)}`;
      if (problem) {
        failures.push(report(index, fuzzCase, problem, outcome));
        await testInfo.attach(`case-${index}.${fuzzCase.ext}`, { body: fuzzCase.bytes });
      } else {
        codes[code as 0 | 2]++;
      }
    }
  } finally {
    process.off('warning', onWarning);
    rmSync(dir, { recursive: true, force: true });
  }
  expect(failures, failures.join('\n\n')).toEqual([]);
  // The mutations must reach both outcomes, or the test proves little.
  expect(codes[2]).toBeGreaterThan(IN_PROCESS_CASES / 2);
  expect(codes[0]).toBeGreaterThan(IN_PROCESS_CASES / 100);
});

test('validate through the built CLI: mutated configs never crash, hang or print a stack trace', async ({}, testInfo) => {
  test.setTimeout(120_000);
  expect(existsSync(join(ROOT, 'dist', 'cli', 'main.cjs')), 'run `npm run build` first (npm test does)').toBe(true);
  announceSeed(testInfo);
  const random = seededRandom(seed ^ 0x5eed);
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-fuzz-cli-'));
  const failures: string[] = [];
  try {
    const cases = Array.from({ length: CLI_CASES }, (_, index) => {
      const fuzzCase = makeCase(random, corpus);
      const file = join(dir, `case-${index}.${fuzzCase.ext}`);
      writeFileSync(file, fuzzCase.bytes);
      return { index, fuzzCase, file };
    });
    // Every case through the same code in this process (a child costs seconds of Node start-up),
    // once the CLI's modules are loaded (the first call loads them: not a case's time)...
    await validateInProcess(join(ROOT, 'examples', 'procedures.yaml'), dir);
    const inProcess = [];
    for (const fuzzCase of cases) {
      const outcome = await validateInProcess(fuzzCase.file, dir);
      const problem = verdict(outcome);
      if (problem) failures.push(report(fuzzCase.index, fuzzCase.fuzzCase, problem, outcome));
      inProcess.push({ ...fuzzCase, outcome });
    }
    // ...and the heaviest through the built command, where what kills a process (a stack overflow,
    // memory, a rejection after the answer, a hang) shows: each must end as it did in-process.
    const heaviest = inProcess.toSorted((a, b) => b.outcome.ms - a.outcome.ms).slice(0, SPAWNED_CASES);
    // Two at a time: the machine has two cores.
    for (let i = 0; i < heaviest.length; i += 2) {
      await Promise.all(
        heaviest.slice(i, i + 2).map(async ({ index, fuzzCase, file, outcome: expected }) => {
          const outcome = await runValidate(file, dir);
          const problem = verdict(outcome) ?? (outcome.code !== expected.code ? `exit ${outcome.code} from the CLI, ${expected.code} in-process` : undefined);
          if (problem) failures.push(report(index, fuzzCase, problem, outcome));
        }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(failures, failures.join('\n\n')).toEqual([]);
});

/** `validate -c FILE` through the CLI's `main` in this process, timed. */
async function validateInProcess(file: string, cwd: string): Promise<Outcome> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    env,
    cwd,
  };
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  process.on('warning', onWarning);
  try {
    const started = performance.now();
    const code = await main(['validate', '-c', file], io);
    const ms = performance.now() - started;
    // Node emits a warning on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    return { code, ...out, ms, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}

/** `node bin/multiauth.js validate -c FILE`, killed past twice the case limit (process start included). */
async function runValidate(file: string, cwd: string): Promise<Outcome> {
  const run = await runCliAsync(['validate', '-c', file], { cwd, env, timeoutMs: CASE_LIMIT_MS * 2 });
  const ms = run.elapsedMs;
  // The child's own start-up is not the config's fault: allow it once more.
  return {
    code: run.signal ? null : run.code,
    stdout: run.stdout,
    stderr: run.signal ? `killed (${run.signal}) after ${Math.round(ms)} ms\n${run.stderr}` : run.stderr,
    ms: ms / 2,
  };
}
