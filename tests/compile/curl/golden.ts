import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The golden corpus directory: `NN-name.txt` (a command as copied) and `NN-name.json` (its request). */
export const GOLDEN_DIR = fileURLToPath(new URL('./golden/', import.meta.url));

/** One golden case: the command text and the request template it must parse to. */
export interface GoldenCase {
  name: string;
  command: string;
  expected: unknown;
}

/**
 * Every golden case, in file order.
 *
 * @example
 * for (const { name, command } of goldenCases()) parseCurl(command);
 */
export function goldenCases(): GoldenCase[] {
  return readdirSync(GOLDEN_DIR)
    .filter((file) => file.endsWith('.txt'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.txt'.length);
      return {
        name,
        command: readFileSync(`${GOLDEN_DIR}${file}`, 'utf8'),
        expected: JSON.parse(readFileSync(`${GOLDEN_DIR}${name}.json`, 'utf8')) as unknown,
      };
    });
}
