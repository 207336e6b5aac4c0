import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as demoTest } from '../support/demo.js';
import { formLoginProcedure } from '../support/config-texts.js';

/** What the echo server saw: an origin other than the demo's, to prove nothing leaks there. */
export interface EchoServer {
  url: string;
  seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
  stop(): Promise<void>;
}

async function startEcho(): Promise<EchoServer> {
  const seen: EchoServer['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, stop: () => new Promise((r) => server.close(() => r())) };
}

/**
 * Fixture tests: the demo server of tests/support/demo.ts (the target app) and an echo server
 * (another origin) per worker. The inline projects reach them through DEMO_URL and ECHO_URL.
 */
export const test = demoTest.extend<{ demoEnv: Record<string, string> }, { echo: EchoServer }>({
  echo: [
    async ({}, use) => {
      const echo = await startEcho();
      await use(echo);
      await echo.stop();
    },
    { scope: 'worker' },
  ],
  demoEnv: async ({ demo, echo }, use) => {
    demo.reset();
    echo.seen.length = 0;
    await use({ DEMO_URL: demo.url, ECHO_URL: echo.url });
  },
});

export { expect } from '@playwright/test';

/** An http preset signing `user` in at the demo's token endpoint and injecting the token as `injection`. */
function tokenPreset(user: string, injection: string): string {
  return `
  - type: http
    request:
      url: \${DEMO_URL}/auth/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions:
      - { name: token, location: body, key: data.auth.access_token }
    injections:
      - ${injection}
    users:
      - { username: ${user}, password: ${user}-password }`;
}

/** A config with one user per way of injecting, all against the demo server. */
export const MULTI_CONFIG = `
presets:${tokenPreset('alice', '{ location: header, key: Authorization, prefix: Bearer, variable: token }')}${tokenPreset('bob', '{ location: query, key: access_token, variable: token }')}${tokenPreset('carol', '{ location: body, key: access_token, variable: token }')}
procedures:
${formLoginProcedure('${DEMO_URL}')}users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
`;
