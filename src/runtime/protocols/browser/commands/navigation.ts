import { compileUserRegex } from '../../../../core/regex.js';
import type { Frame, Locator, Page } from 'playwright-core';
import { optional, required } from '../args.js';
import type { CommandRows } from '../command-spec.js';
import { StepFailure } from '../failure.js';
import type { BrowserRun } from '../state.js';

/** Windows, frames, navigation and timing: open, selectFrame, selectWindow, pause, wait, … */
export const NAVIGATION_COMMANDS: CommandRows = {
  open: {
    summary: 'Opens a URL (relative URLs resolve against the project `url`, else the first absolute `open`) and waits for the load event.',
    args: { target: required('url') },
    async run(run, cmd) {
      const url = absoluteUrl(cmd.target, run.baseUrl);
      run.baseUrl ??= new URL(url).origin;
      await run.page.goto(url, { timeout: run.remaining(), waitUntil: 'load' });
      run.frame = run.page.mainFrame();
    },
  },
  setWindowSize: {
    summary: 'Sets the size of the page\'s viewport (`1280x800`).',
    args: { target: required('resolution') },
    async run(run, cmd) {
      const [width = 0, height = 0] = cmd.target.split('x').map((n) => Number.parseInt(n, 10));
      if (!(width > 0 && height > 0)) throw new StepFailure('invalid', 'expected WIDTHxHEIGHT, e.g. 1280x800');
      await run.page.setViewportSize({ width, height });
    },
  },
  selectFrame: {
    summary: 'Selects a frame: `index=N` (0-based, `\\`-separated for nested), `relative=parent`, `relative=top`, a frame\'s name or id, or a locator.',
    args: { target: required('frameLocator') },
    async run(run, cmd) {
      const target = cmd.target;
      if (target === 'relative=top') {
        run.frame = run.page.mainFrame();
      } else if (target === 'relative=parent') {
        run.frame = run.frame.parentFrame() ?? run.frame;
      } else if (target.startsWith('index=')) {
        for (const part of target.slice('index='.length).split('\\')) {
          run.frame = part === '..'
            ? (run.frame.parentFrame() ?? run.frame)
            : await frameOf(run, run.frame.locator('iframe, frame').nth(Number(part)), `frame index ${part}`);
        }
      } else if (/^[\w-]+$/.test(target)) {
        const frames = ['iframe', 'frame'].flatMap((tag) => [`${tag}[name="${target}"]`, `${tag}[id="${target}"]`]);
        run.frame = await frameOf(run, run.frame.locator(frames.join(', ')).first(), `frame "${target}"`);
      } else {
        run.frame = await frameOf(run, await run.element(cmd), 'the target');
      }
    },
  },
  selectWindow: {
    summary: 'Selects a window: `handle=${name}` (a handle stored by `opensWindow` or `storeWindowHandle`), `win_ser_local`, `win_ser_N`, `name=…`, `title=…`; waits for it to open.',
    args: { target: required('windowLocator') },
    async run(run, cmd) {
      let page: Page | undefined;
      await run.until(
        `no window matches "${cmd.target}"`,
        async () => {
          page = await run.windows.find(cmd.target);
          return { ok: page !== undefined };
        },
        'window',
      );
      if (page) run.selectPage(page);
    },
  },
  storeWindowHandle: {
    summary: 'Stores the handle of the selected window in a variable.',
    args: { target: required('variable') },
    async run(run, cmd) {
      run.vars.set(cmd.target, run.windows.handleOf(run.page));
    },
  },
  close: {
    summary: 'Closes the selected window; the first window still open becomes selected.',
    args: {},
    async run(run) {
      await run.page.close();
      const next = run.windows.firstOpen();
      if (next) run.selectPage(next);
    },
  },
  pause: {
    summary: 'Waits the given number of milliseconds (target, or value).',
    args: { target: optional('milliseconds'), value: optional('milliseconds') },
    async run(run, cmd) {
      await run.pause(Number(cmd.target || cmd.value || 0));
    },
  },
  setSpeed: {
    summary: 'Accepted for recorded projects; has no effect.',
    args: { target: optional('milliseconds') },
    async run() {},
  },
  wait: {
    summary: 'The Python original\'s wait: `request_url_contains=REGEX` waits for a request whose URL matches (value = timeout in seconds); a number of seconds (target or value) sleeps.',
    args: { target: optional('waitCondition'), value: optional('seconds') },
    async run(run, cmd) {
      const condition = /^request_url_contains=(.+)$/s.exec(cmd.target);
      if (!condition) {
        await run.pause(Number(cmd.target || cmd.value || 0) * 1000);
        return;
      }
      const pattern = compileUserRegex(condition[1] ?? '');
      if (cmd.value) run.startClock(Number(cmd.value) * 1000);
      await run.until(
        `no request URL matched the regex "${condition[1]}"`,
        async () => ({
          ok: run.observed.urls.some((url) => pattern.test(url)) ||
            run.observed.requests.some((request) => pattern.test(request.url)),
        }),
        'timeout',
      );
    },
  },
  echo: {
    summary: 'Writes the (expanded, redacted) target to the run\'s log.',
    args: { target: optional('text') },
    async run(run, cmd) {
      run.log(cmd.target);
    },
  },
};

/**
 * An `open` target as an absolute URL.
 *
 * @example
 * absoluteUrl('/login', 'https://app.test'); // 'https://app.test/login'
 */
export function absoluteUrl(target: string, base: string | undefined): string {
  if (/^[a-z][a-z\d+.-]*:/i.test(target)) return target;
  if (!base) {
    throw new StepFailure(
      'invalid',
      `the relative URL "${target}" needs a base: set the project's url, or open an absolute URL first`,
    );
  }
  return new URL(target, base).href;
}

async function frameOf(run: BrowserRun, locator: Locator, what: string): Promise<Frame> {
  try {
    await locator.waitFor({ state: 'attached', timeout: run.remaining() });
  } catch {
    throw new StepFailure('not-found', `${what} was not found`);
  }
  const handle = await locator.elementHandle({ timeout: run.remaining() });
  const frame = await handle?.contentFrame();
  await handle?.dispose();
  if (!frame) throw new StepFailure('invalid', `${what} is not a frame`);
  return frame;
}
