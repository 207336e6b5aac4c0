import type { Locator } from 'playwright-core';
import { optional, required } from '../args.js';
import type { CommandRows } from '../command-spec.js';
import { StepFailure } from '../failure.js';
import type { BrowserRun } from '../state.js';

/** Clicks, hovers, drags and toggles. */
export const MOUSE_COMMANDS: CommandRows = {
  click: {
    summary: 'Clicks the element (waits until it is visible, stable and enabled).',
    args: { target: required('locator') },
    async run(run, cmd) {
      await (await run.element(cmd)).click({ timeout: run.remaining() });
    },
  },
  clickAt: {
    summary: 'Clicks at `x,y` from the element\'s top-left corner (the centre when value is empty).',
    args: { target: required('locator'), value: optional('coordinates') },
    async run(run, cmd) {
      await (await run.element(cmd)).click({ timeout: run.remaining(), position: coordinates(cmd.value) });
    },
  },
  doubleClick: {
    summary: 'Double-clicks the element.',
    args: { target: required('locator') },
    async run(run, cmd) {
      await (await run.element(cmd)).dblclick({ timeout: run.remaining() });
    },
  },
  doubleClickAt: {
    summary: 'Double-clicks at `x,y` from the element\'s top-left corner.',
    args: { target: required('locator'), value: optional('coordinates') },
    async run(run, cmd) {
      await (await run.element(cmd)).dblclick({ timeout: run.remaining(), position: coordinates(cmd.value) });
    },
  },
  mouseOver: {
    summary: 'Moves the mouse over the element.',
    args: { target: required('locator') },
    async run(run, cmd) {
      await (await run.element(cmd)).hover({ timeout: run.remaining() });
    },
  },
  mouseOut: {
    summary: 'Moves the mouse just outside the element (above, right, below or left of it, as Selenium IDE does).',
    args: { target: required('locator') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      await element.scrollIntoViewIfNeeded({ timeout: run.remaining() });
      const box = await element.boundingBox({ timeout: run.remaining() });
      if (!box) throw new StepFailure('not-found', 'the element is not visible');
      const viewport = run.page.viewportSize() ??
        (await run.page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })));
      const [x, y] = outside(box, viewport);
      await run.page.mouse.move(x, y);
    },
  },
  mouseDown: {
    summary: 'Presses the left mouse button over the element.',
    args: { target: required('locator') },
    async run(run, cmd) {
      await moveTo(run, await run.element(cmd));
      await run.page.mouse.down();
    },
  },
  mouseDownAt: {
    summary: 'Presses the left mouse button at `x,y` from the element\'s top-left corner.',
    args: { target: required('locator'), value: required('coordinates') },
    async run(run, cmd) {
      await moveTo(run, await run.element(cmd), coordinates(cmd.value));
      await run.page.mouse.down();
    },
  },
  mouseUp: {
    summary: 'Releases the left mouse button over the element.',
    args: { target: required('locator') },
    async run(run, cmd) {
      await moveTo(run, await run.element(cmd));
      await run.page.mouse.up();
    },
  },
  mouseUpAt: {
    summary: 'Releases the left mouse button at `x,y` from the element\'s top-left corner.',
    args: { target: required('locator'), value: required('coordinates') },
    async run(run, cmd) {
      await moveTo(run, await run.element(cmd), coordinates(cmd.value));
      await run.page.mouse.up();
    },
  },
  mouseMoveAt: {
    summary: 'Moves the mouse to `x,y` from the element\'s top-left corner.',
    args: { target: required('locator'), value: required('coordinates') },
    async run(run, cmd) {
      await moveTo(run, await run.element(cmd), coordinates(cmd.value));
    },
  },
  dragAndDropToObject: {
    summary: 'Drags the target element onto the element the value locates.',
    args: { target: required('locator'), value: required('locator') },
    async run(run, cmd) {
      const source = await run.element(cmd);
      const destination = await run.element({ ...cmd, candidates: [{ locator: cmd.value }] });
      await source.dragTo(destination, { timeout: run.remaining() });
    },
  },
  check: {
    summary: 'Checks a checkbox or radio button (nothing happens when it already is).',
    args: { target: required('locator') },
    async run(run, cmd) {
      await (await run.element(cmd)).check({ timeout: run.remaining() });
    },
  },
  uncheck: {
    summary: 'Unchecks a checkbox (nothing happens when it already is unchecked).',
    args: { target: required('locator') },
    async run(run, cmd) {
      await (await run.element(cmd)).uncheck({ timeout: run.remaining() });
    },
  },
};

/**
 * `x,y` as a position; undefined for an empty text.
 *
 * @example
 * coordinates('10, 5'); // { x: 10, y: 5 }
 */
export function coordinates(text: string): { x: number; y: number } | undefined {
  if (!text.trim()) return undefined;
  const match = /^(-?\d+)\s*,\s*(-?\d+)$/.exec(text.trim());
  if (!match) throw new StepFailure('invalid', 'expected coordinates x,y, e.g. 10,5');
  return { x: Number(match[1]), y: Number(match[2]) };
}

async function moveTo(run: BrowserRun, element: Locator, position?: { x: number; y: number }): Promise<void> {
  await element.hover({ timeout: run.remaining(), position });
}

type Box = { x: number; y: number; width: number; height: number };

function outside(box: Box, viewport: { width: number; height: number }): [number, number] {
  const centreX = box.x + box.width / 2;
  const centreY = box.y + box.height / 2;
  if (box.y > 0) return [centreX, box.y - 1];
  if (viewport.width > box.x + box.width) return [box.x + box.width + 1, centreY];
  if (viewport.height > box.y + box.height) return [centreX, box.y + box.height + 1];
  if (box.x > 0) return [box.x - 1, centreY];
  throw new StepFailure('invalid', 'cannot move the mouse out: the element covers the whole viewport');
}
