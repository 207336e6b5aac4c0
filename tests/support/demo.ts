import { test as base } from '@playwright/test';
import type { IncomingHttpHeaders } from 'node:http';
import { startDemoServer, type DemoServer, type Route } from '../../fixtures/demo-server/index.js';
import { routes } from '../../fixtures/demo-server/routes/index.js';

/** One request a recorded route received. */
export interface SeenRequest {
  method: string;
  /** Path without the `/rec` prefix, e.g. `/auth/token`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** When it arrived, Unix ms. */
  at: number;
}

/** The demo server, plus a log of what its `/rec/...` twins of every route received. */
export interface RecordingDemo extends DemoServer {
  /** Requests to `/rec/...` routes since the last {@link RecordingDemo.clear}, in order. */
  seen: SeenRequest[];
  /** Resets the demo's state and counters and forgets what was seen. */
  clear(): void;
}

/** Every standard route again under `/rec`, recording the request's headers before handling it. */
function recordedRoutes(seen: SeenRequest[]): Route[] {
  return routes.map((r) => ({
    ...r,
    path: `/rec${r.path}`,
    handle: (ctx) => {
      seen.push({ method: ctx.req.method ?? '', path: ctx.url.pathname.replace(/^\/rec/, ''), headers: { ...ctx.req.headers }, at: Date.now() });
      return r.handle(ctx);
    },
  }));
}

/**
 * Playwright Test with a worker-scoped `demo`: the demo server (fixtures/demo-server), started once
 * per worker on a free port and stopped after the worker's last test. Its routes also answer under
 * `/rec/...` (e.g. `/rec/auth/body-login`, `/rec/whoami`) and record the headers they received, so
 * a test can see what a sign-in or an authenticated request actually carried; the standard routes
 * behave as in `npm run demo`.
 *
 * @example
 * test('alice signs in', async ({ demo }) => { ... demo.url ... });
 * test('x', async ({ demo }) => { demo.clear(); ...; expect(demo.seen[0]?.headers['x-tenant']).toBe('acme'); });
 */
export const test = base.extend<object, { demo: RecordingDemo }>({
  demo: [
    async ({}, use) => {
      const seen: SeenRequest[] = [];
      const server = await startDemoServer({ extraRoutes: recordedRoutes(seen) });
      const demo: RecordingDemo = Object.assign(server, {
        seen,
        clear: () => {
          server.reset();
          seen.length = 0;
        },
      });
      await use(demo);
      await server.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
