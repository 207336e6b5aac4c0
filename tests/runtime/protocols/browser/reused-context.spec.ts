import type { BrowserContext } from 'playwright-core';
import { c, expect, op, run, test } from './support.js';

// The first test leaves everything it can behind in the worker's context; the second, in the same
// worker right after it, must find none of it (support.ts: one context per worker, reset between tests).
test.describe.configure({ mode: 'serial' });

test.describe('the context shared by the tests of a worker', () => {
  let used: number | undefined;
  let tab: string | undefined;

  test('a test leaves storage, windows, permissions, headers and the viewport behind', async ({ context, pages }) => {
    used = test.info().workerIndex;
    const result = await run(
      context,
      op([
        c('open', `${pages.url}/form.html`),
        c('executeScript', "document.cookie = 'leak=1; path=/'; localStorage.setItem('leak', 'local'); sessionStorage.setItem('leak', 'session'); window.name = 'leak'; window.open('/help.html')"),
        c('setWindowSize', '333x222'),
      ]),
    );
    tab = await tabId(context);
    expect(result.storage.cookies.map((cookie) => cookie.name)).toEqual(['leak']);
    expect(result.storage.origins).toEqual([{ origin: pages.url, localStorage: [{ name: 'leak', value: 'local' }], sessionStorage: [{ name: 'leak', value: 'session' }] }]);
    await expect.poll(() => context.pages().length).toBe(2);
    await context.grantPermissions(['geolocation'], { origin: pages.url });
    await context.setExtraHTTPHeaders({ 'x-leak': 'header' });
  });

  test('the next test of the worker finds none of it', async ({ context, pages }) => {
    expect(test.info().workerIndex).toBe(used);
    const heard: string[] = [];
    context.on('request', (request) => void request.allHeaders().then((headers) => headers['x-leak'] && heard.push(headers['x-leak'])));
    const result = await run(
      context,
      op([
        c('open', `${pages.url}/form.html`),
        c('executeAsyncScript', "return navigator.permissions.query({ name: 'geolocation' }).then((p) => p.state)", 'permission'),
        c('executeScript', "return window.name + '|' + sessionStorage.length + '|' + localStorage.length + '|' + document.cookie", 'left'),
      ]),
    );
    // The same tab, or this test proves nothing about the reset.
    expect(await tabId(context)).toBe(tab);
    expect(result.variables).toEqual({ permission: 'prompt', left: '|0|0|' });
    expect(result.storage.cookies).toEqual([]);
    expect(result.storage.origins).toEqual([]);
    expect(context.pages()).toHaveLength(1);
    expect(context.pages()[0]?.viewportSize()).toEqual({ width: 1280, height: 720 });
    expect(heard).toEqual([]);
  });
});

/** Chromium's id of the context's first tab: the same across navigations, new for a new page. */
async function tabId(context: BrowserContext): Promise<string> {
  const page = context.pages()[0];
  if (!page) throw new Error('the context has no page');
  const cdp = await context.newCDPSession(page);
  try {
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    return targetInfo.targetId;
  } finally {
    await cdp.detach();
  }
}
