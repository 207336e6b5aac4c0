/**
 * Writes docs/schema.json from the zod schema of the format:
 *   node --import tsx scripts/gen-schema.ts
 * A test fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { formatJsonSchema } from '../src/config/json-schema.js';

const target = new URL('../docs/schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(formatJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
