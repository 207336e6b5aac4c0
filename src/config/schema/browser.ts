import { z } from 'zod';
import { Count } from './common.js';

/**
 * BrowserCommand: one Selenium IDE command. Besides the spec's fields, the keys that Selenium IDE
 * writes into `.side` files are known, so an exported project runs unchanged: there `targets` is a
 * list of `[target, strategy]` pairs, where the spec writes a string.
 */
export const BrowserCommand = z.strictObject({
  id: z.string().describe('The command\'s id (any string; Selenium IDE writes a UUID).'),
  command: z.string().describe('A Selenium IDE command: open, click, type, sendKeys, select, waitForElementVisible, storeText, assertText, pause... (docs/browser.md).'),
  target: z.string().describe('What the command acts on: a URL for open, else a locator (id=, name=, css=, xpath=, linkText=, or bare CSS/XPath).'),
  targets: z.union([z.string(), z.array(z.union([z.string(), z.array(z.string())]))]).optional()
    .describe('Other locators tried in order when target finds nothing: a string, or Selenium IDE\'s list of [target, strategy] pairs.'),
  value: z.string().optional().describe('The command\'s value: the text to type, the option to select, the variable to store into...'),
  comment: z.string().optional().describe('A note (Selenium IDE export); ignored.'),
  opensWindow: z.boolean().optional().describe('true: the command must open a window (within windowTimeout); its handle is stored in windowHandleName.'),
  windowHandleName: z.string().optional().describe('The variable that gets the handle of the window the command opens (selectWindow handle=${name}).'),
  windowTimeout: z.number().optional().describe('Milliseconds the window may take to open; default the step\'s time.'),
});
export type BrowserCommand = z.infer<typeof BrowserCommand>;

/** BrowserTest: a named list of commands. */
export const BrowserTest = z.strictObject({
  id: z.string().describe('The test\'s id (any string; Selenium IDE writes a UUID).'),
  name: z.string().describe('The test\'s name (shown in errors).'),
  commands: z.array(BrowserCommand).describe('The steps, run in order: {id, command, target, value}.'),
});
export type BrowserTest = z.infer<typeof BrowserTest>;

/**
 * BrowserProject: the spec requires only `tests`; the other keys are those of a Selenium IDE `.side`
 * file (accepted so an export can be pasted whole; `url` is where relative `open` targets resolve).
 */
export const BrowserProject = z.strictObject({
  tests: z.array(BrowserTest).describe('The recorded tests, each run in order: {id, name, commands}.'),
  id: z.string().optional().describe('Selenium IDE export: the project\'s id.'),
  version: z.string().optional().describe('Selenium IDE export: the .side format version.'),
  name: z.string().optional().describe('Selenium IDE export: the project\'s name.'),
  url: z.string().optional().describe('Where relative open targets resolve (https://app.example.test).'),
  urls: z.array(z.string()).optional().describe('Selenium IDE export: URLs the project was recorded on; ignored.'),
  suites: z.array(z.unknown()).optional().describe('Selenium IDE export: its suites; ignored (every test runs).'),
  plugins: z.array(z.unknown()).optional().describe('Selenium IDE export: its plugins; ignored.'),
  snapshot: z.unknown().optional().describe('Selenium IDE export: its snapshot; ignored.'),
});
export type BrowserProject = z.infer<typeof BrowserProject>;

/** BrowserScriptOptions. */
export const BrowserScriptOptions = z.strictObject({
  wait_for_seconds: Count.optional().describe('Seconds each step may wait (page loads, elements); default 10.'),
  proxy: z.string().optional().describe('HTTP(S) proxy URL of the browser; default the top-level proxy.'),
});
export type BrowserScriptOptions = z.infer<typeof BrowserScriptOptions>;

/** BrowserOperationParameters. */
export const BrowserOperationParameters = z.strictObject({
  project: BrowserProject.describe('A Selenium IDE project (a .side export pasted whole works): its tests run in a browser.'),
  options: BrowserScriptOptions.describe('wait_for_seconds and proxy of the browser steps; required, may be {}.'),
});
export type BrowserOperationParameters = z.infer<typeof BrowserOperationParameters>;
