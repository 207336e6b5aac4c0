import type { BrowserContext, Frame, Locator, Page } from 'playwright-core';
import type { BrowserCommand } from '../../../config/index.js';
import type { ConfigPath } from '../../../core/path.js';
import type { Observation } from '../../http/observation.js';
import type { TemplateWhere } from '../../template/template.js';
import { BrowserBudget } from './budget.js';
import type { BrowserVariables } from './expand.js';
import { StepFailure, type FailureKind } from './failure.js';
import { parseLocator, toSelector, type LocatorCandidate } from './locators.js';
import type { WindowTracker } from './windows.js';

/** One command as its handler sees it: arguments expanded according to their kind. */
export interface CommandInput {
  /** Name of the test the command belongs to. */
  test: string;
  /** 1-based index within the test. */
  index: number;
  command: string;
  /** Expanded target; scripts and key sequences are left raw (handlers expand them). */
  target: string;
  /** Expanded value; scripts and key sequences are left raw. */
  value: string;
  /** For locator targets: the target, then each of `targets`, expanded. */
  candidates: LocatorCandidate[];
  raw: BrowserCommand;
  /** Config path of the command. */
  path: ConfigPath;
  /** For a loop's deciding command: how many times its body has run since the loop started. */
  iteration?: number;
  /** Where a field of the command is expanded, for template errors (`cmd.at('value')`). */
  at(field: 'target' | 'value' | 'targets'): TemplateWhere;
}

/** Options of a {@link BrowserRun}. */
export interface BrowserRunOptions {
  /** Time each command may take, in ms (options.wait_for_seconds). */
  timeoutMs: number;
  /** Where relative `open` URLs resolve (the project's `url`). */
  baseUrl?: string;
  /** Where `echo` writes (already redacted). */
  log?: (line: string) => void;
  redact: (text: string) => string;
  /** What the whole operation may spend (default: a fresh {@link BROWSER_BUDGET}). */
  budget?: BrowserBudget;
}

const POLL_MS = 100;

/**
 * The state of a running browser step: the selected window and frame, the variables, and the
 * deadline of the current command. Command handlers act through it.
 */
export class BrowserRun {
  page: Page;
  frame: Frame;
  baseUrl: string | undefined;
  /** What the operation may still spend: every command's clock stops at its end. */
  readonly budget: BrowserBudget;
  /**
   * The messages the selected window showed before the last command that may have submitted a
   * form; undefined before any. A refusal is a message that was not among them.
   */
  messagesBeforeSubmit: string[] | undefined;
  private deadline = 0;
  private budgetMs = 0;

  constructor(
    readonly context: BrowserContext,
    page: Page,
    readonly vars: BrowserVariables,
    readonly windows: WindowTracker,
    /** What the step has observed so far (live): `wait request_url_contains=` reads it. */
    readonly observed: Observation,
    readonly options: BrowserRunOptions,
  ) {
    this.page = page;
    this.frame = page.mainFrame();
    this.baseUrl = options.baseUrl;
    this.budget = options.budget ?? new BrowserBudget();
  }

  /**
   * Starts a command's clock: `timeoutMs` from now (default options.wait_for_seconds), cut to the
   * operation's time left, so no command's own timeout outlasts the budget.
   */
  startClock(timeoutMs = this.options.timeoutMs): void {
    this.budgetMs = Math.min(timeoutMs, this.budget.msLeft());
    this.deadline = Date.now() + this.budgetMs;
  }

  /**
   * Sleeps `ms` (`pause`, `wait`), no longer than the operation's time left.
   *
   * @throws StepFailure `budget` when the operation's time ran out during the sleep.
   */
  async pause(ms: number): Promise<void> {
    await sleep(Math.min(ms, this.budget.msLeft()));
    if (this.budget.timeUp()) throw this.budget.timeFailure();
  }

  /** Milliseconds left to the current command (at least 1: Playwright reads 0 as "no limit"). */
  remaining(): number {
    return Math.max(1, this.deadline - Date.now());
  }

  /**
   * Time allowed to read something from the page (text, value, state) inside a polling loop: what
   * is left of the command, but at least 1 s, so the last poll near the deadline can still answer.
   */
  readTimeout(): number {
    return Math.max(1000, this.remaining());
  }

  /** Selects a window and its top frame. */
  selectPage(page: Page): void {
    this.page = page;
    this.frame = page.mainFrame();
  }

  /**
   * A Playwright locator for a Selenium IDE locator in the selected frame (first match, as
   * WebDriver's findElement).
   *
   * @throws StepFailure `invalid` when the locator cannot be parsed.
   */
  locate(candidate: LocatorCandidate): Locator {
    return this.locateAll(candidate).first();
  }

  /** Every element a Selenium IDE locator matches in the selected frame. */
  locateAll(candidate: LocatorCandidate): Locator {
    const parsed = parseLocator(candidate.locator, candidate.strategy);
    if (typeof parsed === 'string') throw new StepFailure('invalid', parsed);
    return this.frame.locator(toSelector(parsed));
  }

  /**
   * The element a command acts on: its target, else the first of its `targets` that exists. The
   * target alone gets the whole time when there are no alternatives; with alternatives it gets a
   * quarter of it (at least 1 s), then all candidates are polled in order until the deadline.
   *
   * @throws StepFailure `not-found` when nothing matched in time.
   */
  async element(cmd: CommandInput): Promise<Locator> {
    const [main, ...rest] = cmd.candidates;
    if (!main) throw new StepFailure('invalid', 'the command has no target');
    if (!rest.length) {
      const only = this.locate(main);
      try {
        await only.waitFor({ state: 'attached', timeout: this.remaining() });
        return only;
      } catch (error) {
        // On a loaded machine the budget can run out during the wait's own round trip: an element
        // that is there is not "missing"; the action then fails with its own reason.
        if ((await only.count().catch(() => 0)) > 0) return only;
        throw notFound(cmd, this.budgetMs, error);
      }
    }
    try {
      const first = this.locate(main);
      await first.waitFor({ state: 'attached', timeout: Math.min(this.remaining(), Math.max(1000, this.budgetMs / 4)) });
      return first;
    } catch {
      // fall back to the alternatives below
    }
    const all = cmd.candidates.map((candidate) => {
      try {
        return this.locate(candidate);
      } catch {
        return undefined;
      }
    });
    for (;;) {
      for (const locator of all) {
        if (locator && (await locator.count().catch(() => 0)) > 0) return locator;
      }
      if (Date.now() >= this.deadline) throw notFound(cmd, this.budgetMs);
      await sleep(POLL_MS);
    }
  }

  /**
   * Polls `check` until it says `ok` or the command's time is up.
   *
   * @param what what was expected, for the failure message (no secrets)
   * @throws StepFailure (`kind`, default `assertion`) with `what` and the last `actual` seen.
   */
  async until(
    what: string,
    check: () => Promise<{ ok: boolean; actual?: string }>,
    kind: FailureKind = 'assertion',
  ): Promise<void> {
    let seen: string | undefined;
    for (;;) {
      const result = await check();
      if (result.ok) return;
      seen = result.actual ?? seen;
      if (Date.now() >= this.deadline) break;
      await sleep(POLL_MS);
    }
    const actual = seen === undefined ? '' : `; actual: ${seen}`;
    throw new StepFailure(kind, `${what} (still not after ${this.budgetMs / 1000}s)${actual}`);
  }

  /** The text of `echo`, redacted. */
  log(line: string): void {
    this.options.log?.(this.options.redact(line));
  }
}

function notFound(cmd: CommandInput, timeoutMs: number, cause?: unknown): StepFailure {
  const alternatives = cmd.candidates.length - 1;
  const also = alternatives ? ` nor any of its ${alternatives} alternative${alternatives === 1 ? '' : 's'} in targets` : '';
  const invalid = cause instanceof Error && cause.name !== 'TimeoutError' ? ` (${cause.message.split('\n')[0]})` : '';
  return new StepFailure('not-found', `no element matches the target${also} within ${timeoutMs / 1000}s${invalid}`);
}

/**
 * Waits `ms` milliseconds.
 *
 * @example
 * await sleep(100);
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
