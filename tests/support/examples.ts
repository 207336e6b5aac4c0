import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.js';

/** The URL the examples sign in to (`npm run demo`'s demo server). */
const EXAMPLE_DEMO_URL = 'http://127.0.0.1:4010';

/**
 * The text of `examples/presets/webdriver.yaml`, pointed at a demo server the test started.
 *
 * @example
 * const plan = planFromYaml(webdriverExample(demo.url));
 */
export function webdriverExample(demoUrl: string): string {
  return exampleAt(join('presets', 'webdriver.yaml'), demoUrl);
}

/**
 * The text of an example under `examples/`, pointed at a demo server the test started.
 *
 * @example
 * const plan = planFromYaml(exampleAt('browser/control-flow.yaml', demo.url));
 */
export function exampleAt(path: string, demoUrl: string): string {
  const text = readFileSync(join(ROOT, 'examples', path), 'utf8');
  if (!text.includes(EXAMPLE_DEMO_URL)) throw new Error(`the example ${path} no longer targets ${EXAMPLE_DEMO_URL}`);
  return text.replaceAll(EXAMPLE_DEMO_URL, demoUrl);
}
