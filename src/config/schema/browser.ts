import { z } from 'zod';
import { Count } from './common.js';

/**
 * BrowserCommand: one Selenium IDE command. Besides the spec's fields, the keys that Selenium IDE
 * writes into `.side` files are known, so an exported project runs unchanged: there `targets` is a
 * list of `[target, strategy]` pairs, where the spec writes a string.
 */
export const BrowserCommand = z.strictObject({
  id: z.string(),
  command: z.string(),
  target: z.string(),
  targets: z.union([z.string(), z.array(z.union([z.string(), z.array(z.string())]))]).optional(),
  value: z.string().optional(),
  comment: z.string().optional(),
  opensWindow: z.boolean().optional(),
  windowHandleName: z.string().optional(),
  windowTimeout: z.number().optional(),
});
export type BrowserCommand = z.infer<typeof BrowserCommand>;

/** BrowserTest: a named list of commands. */
export const BrowserTest = z.strictObject({
  id: z.string(),
  name: z.string(),
  commands: z.array(BrowserCommand),
});
export type BrowserTest = z.infer<typeof BrowserTest>;

/**
 * BrowserProject: the spec requires only `tests`; the other keys are those of a Selenium IDE `.side`
 * file (accepted so an export can be pasted whole; `url` is where relative `open` targets resolve).
 */
export const BrowserProject = z.strictObject({
  tests: z.array(BrowserTest),
  id: z.string().optional(),
  version: z.string().optional(),
  name: z.string().optional(),
  url: z.string().optional(),
  urls: z.array(z.string()).optional(),
  suites: z.array(z.unknown()).optional(),
  plugins: z.array(z.unknown()).optional(),
  snapshot: z.unknown().optional(),
});
export type BrowserProject = z.infer<typeof BrowserProject>;

/** BrowserScriptOptions. */
export const BrowserScriptOptions = z.strictObject({
  /** Seconds each step may wait (page loads, elements); absent = 10. */
  wait_for_seconds: Count.optional(),
  proxy: z.string().optional(),
});
export type BrowserScriptOptions = z.infer<typeof BrowserScriptOptions>;

/** BrowserOperationParameters. */
export const BrowserOperationParameters = z.strictObject({
  project: BrowserProject,
  options: BrowserScriptOptions,
});
export type BrowserOperationParameters = z.infer<typeof BrowserOperationParameters>;
