import { test, expect } from '@playwright/test';
import { loadedConfig, projectBrowser } from '../../src/playwright/loaded-config.js';

const file = '/p/playwright.config.ts';
const run = ['node', '/x/node_modules/@playwright/test/cli.js', 'test'];

test('the config as require loaded it: its default export or the module itself, when it has a config\'s shape', () => {
  expect(loadedConfig(file, { [file]: { exports: { default: { workers: 2 } } } })).toEqual({ workers: 2 });
  expect(loadedConfig(file, { [file]: { exports: { workers: 2 } } })).toEqual({ workers: 2 });
  expect(loadedConfig(file, {})).toBeUndefined();
  expect(loadedConfig(undefined, { [file]: { exports: {} } })).toBeUndefined();
  for (const exports of [undefined, null, { default: null }, { default: [] }, { default: 'x' }, 7]) expect(loadedConfig(file, { [file]: { exports } })).toBeUndefined();
  expect(loadedConfig('__proto__', {})).toBeUndefined();
  expect(loadedConfig('constructor', {})).toBeUndefined();
});

test("a project's browser: its use over the config's, as Playwright's browser fixture launches it", () => {
  const config = {
    use: { headless: true, launchOptions: { executablePath: '/usr/bin/chromium', args: ['--a'] }, baseURL: 'http://x' },
    projects: [
      { name: 'web-bob', use: { authUser: 'bob' } },
      { name: 'web-fr', use: { authUser: 'erin', launchOptions: { args: ['--lang=fr'] }, channel: 'chrome' } },
      { name: 'ff', use: { authUser: 'ann', ...{ defaultBrowserType: 'firefox' } } },
      { name: 'wk', use: { browserName: 'webkit', defaultBrowserType: 'firefox', headless: false } },
    ],
  };
  expect(projectBrowser(config, 'web-bob', run, {})).toEqual({ browserName: 'chromium', launchOptions: { handleSIGINT: false, executablePath: '/usr/bin/chromium', args: ['--a'], headless: true } });
  // launchOptions is one option: the project's replaces the config's, as Playwright merges `use`.
  expect(projectBrowser(config, 'web-fr', run, {})).toEqual({ browserName: 'chromium', launchOptions: { handleSIGINT: false, args: ['--lang=fr'], headless: true, channel: 'chrome' } });
  expect(projectBrowser(config, 'ff', run, {})?.browserName).toBe('firefox');
  expect(projectBrowser(config, 'wk', run, {})).toEqual({ browserName: 'webkit', launchOptions: { handleSIGINT: false, executablePath: '/usr/bin/chromium', args: ['--a'], headless: false } });
  expect(projectBrowser({ projects: [{ name: 'a' }] }, 'a', run, {})).toEqual({ browserName: 'chromium', launchOptions: { handleSIGINT: false } });
});

test('a project the runner cannot launch alike is left to its workers', () => {
  const config = { use: {}, projects: [{ name: 'a', use: {} }] };
  expect(projectBrowser(config, 'a', run, {})).toBeDefined();
  // A command line or environment that changes the launch.
  for (const flag of ['--headed', '--debug', '--browser=firefox', '--browser']) expect(projectBrowser(config, 'a', [...run, flag], {})).toBeUndefined();
  expect(projectBrowser(config, 'a', run, { PWDEBUG: '1' })).toBeUndefined();
  // No such project; a remote browser; a browser Playwright has not; options of other shapes.
  expect(projectBrowser(config, 'b', run, {})).toBeUndefined();
  expect(projectBrowser({ projects: [{ name: 'a', use: { connectOptions: { wsEndpoint: 'ws://x' } } }] }, 'a', run, {})).toBeUndefined();
  expect(projectBrowser({ use: { connectOptions: { wsEndpoint: 'ws://x' } }, projects: [{ name: 'a' }] }, 'a', run, {})).toBeUndefined();
  expect(projectBrowser({ projects: [{ name: 'a', use: { browserName: 'edge' } }] }, 'a', run, {})).toBeUndefined();
  expect(projectBrowser({ projects: [{ name: 'a', use: { browserName: 'toString' } }] }, 'a', run, {})).toBeUndefined();
  for (const use of [[], 'x', { launchOptions: [] }, { launchOptions: 'x' }, { headless: 'yes' }, { channel: 3 }]) {
    expect(projectBrowser({ projects: [{ name: 'a', use }] }, 'a', run, {})).toBeUndefined();
  }
  expect(projectBrowser({ projects: 'a' }, 'a', run, {})).toBeUndefined();
  expect(projectBrowser({ projects: [null, 'a', { name: 'a' }] }, 'a', run, {})).toBeDefined();
  // A `use` whose own key is __proto__ sets no prototype: it is an option like any other.
  const odd = JSON.parse('{"projects": [{"name": "a", "use": {"__proto__": {"browserName": "firefox"}}}]}') as Record<string, unknown>;
  expect(projectBrowser(odd, 'a', run, {})?.browserName).toBe('chromium');
});
