import { c, expect, op, run, test } from './support.js';

// The first test leaves everything it can behind in the worker's context; the second, in the same
// worker right after it, must find none of it (support.ts: one context per worker, reset between tests).
test.describe.configure({ mode: 'serial' });

test.describe('the context shared by the tests of a worker', () => {
  let used: number | undefined;
  // The page's history is not reset: longer in the second test only when its page is the first's.
  let history = 0;

  test('a test leaves storage, windows, permissions, headers and the viewport behind', async ({ context, pages }) => {
    used = test.info().workerIndex;
    const result = await run(
      context,
      op([
        c('open', `${pages.url}/form.html`),
        c('executeScript', 'return history.length', 'history'),
        c('executeScript', "document.cookie = 'leak=1; path=/'; localStorage.setItem('leak', 'local'); sessionStorage.setItem('leak', 'session'); window.name = 'leak'; window.open('/help.html')"),
        c('setWindowSize', '333x222'),
      ]),
    );
    history = Number(result.variables['history']);
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
        c('executeScript', 'return history.length', 'history'),
        c('executeAsyncScript', "return navigator.permissions.query({ name: 'geolocation' }).then((p) => p.state)", 'permission'),
        c('executeScript', "return window.name + '|' + sessionStorage.length + '|' + localStorage.length + '|' + document.cookie", 'left'),
      ]),
    );
    const { history: after, ...variables } = result.variables;
    // The same page, or this test proves nothing about the reset.
    expect(Number(after)).toBeGreaterThan(history);
    expect(variables).toEqual({ permission: 'prompt', left: '|0|0|' });
    expect(result.storage.cookies).toEqual([]);
    expect(result.storage.origins).toEqual([]);
    expect(context.pages()).toHaveLength(1);
    expect(context.pages()[0]?.viewportSize()).toEqual({ width: 1280, height: 720 });
    expect(heard).toEqual([]);
  });
});
