import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startDemoServer } from '../fixtures/demo-server/index.js';
import { compile } from '../src/compile/index.js';
import type { Plan } from '../src/compile/plan.js';
import { loadConfig } from '../src/config/index.js';
import { Redactor } from '../src/core/redactor.js';
import { authenticate } from '../src/runtime/engine/authenticate.js';
import { launchBrowserForCli } from '../src/runtime/protocols/browser/launch.js';
import { median, round, type BenchResult } from './stats.js';

/** Unmeasured sign-ins of each side first: browser caches, JIT, the demo's first requests. */
const WARMUP_ROUNDS = 3;
const ROUNDS = 15;
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Time to sign alice in through the `webdriver` preset (`examples/presets/webdriver.yaml`:
 * open `/login`, type, click, wait for `/app` to say who signed in; `authenticate` with a browser),
 * beside the same steps written directly as Playwright code in the same browser (new context,
 * goto, fill, click, wait for `/app` and its greeting, read cookies and localStorage, close).
 * Both sign in against the demo server (this process) in a headless Chromium
 * (`MULTIAUTH_BROWSER_PATH`, else Playwright's, else Debian's). Wall-clock ms per sign-in: the
 * medians of interleaved rounds (order alternating), and the median of the rounds' ratios.
 * Aim: under 1.2.
 *
 * @example
 * const { ratio } = await benchWebdriver(); // e.g. 1.05
 */
export async function benchWebdriver(): Promise<BenchResult> {
  const demo = await startDemoServer();
  const { browser, close } = await launchBrowserForCli({ env: process.env });
  try {
    const plan = webdriverPlan(demo.url);
    const ours = () => timed(() => signInThroughPreset(plan, browser));
    const peer = () => timed(() => signInWithPlaywright(browser, demo.url));
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      await ours();
      await peer();
    }
    const oursRounds: number[] = [];
    const peerRounds: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let o: number;
      let p: number;
      if (i % 2 === 0) {
        o = await ours();
        p = await peer();
      } else {
        p = await peer();
        o = await ours();
      }
      oursRounds.push(o);
      peerRounds.push(p);
      ratios.push(o / p);
    }
    return {
      name: `sign in through the webdriver preset vs the same steps as Playwright code, median of ${ROUNDS} rounds`,
      ours: round(median(oursRounds)),
      peer: round(median(peerRounds)),
      unit: 'ms per sign-in',
      ratio: round(median(ratios)),
      aim: 1.2,
    };
  } finally {
    await close();
    await demo.stop();
  }
}

async function signInThroughPreset(plan: Plan, browser: Browser): Promise<void> {
  const session = await authenticate(plan, 'alice', { redactor: new Redactor(), browser });
  if (!session.cookies.some((c) => c.name === 'sid') || !session.origins.length || !session.headers.Authorization) {
    throw new Error('the webdriver preset did not sign alice in');
  }
}

async function signInWithPlaywright(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${url}/login`);
    await page.fill('#username', 'alice');
    await page.fill('#password', 'alice-password');
    await page.click('button[type=submit]');
    await page.locator('[data-signed-in]').waitFor({ state: 'attached' });
    const state = await context.storageState();
    if (!state.cookies.some((c) => c.name === 'sid') || !state.origins.length) throw new Error('Playwright did not sign alice in');
  } finally {
    await context.close();
  }
}

/** The webdriver example, pointed at the demo server of this run, loaded and compiled as users do. */
function webdriverPlan(url: string): Plan {
  const yaml = readFileSync(join(root, 'examples', 'presets', 'webdriver.yaml'), 'utf8').replaceAll('http://127.0.0.1:4010', url);
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-bench-'));
  try {
    writeFileSync(join(dir, 'multiauth.yaml'), yaml);
    return compile(loadConfig(join(dir, 'multiauth.yaml'), { env: {} }).config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}



if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchWebdriver();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
