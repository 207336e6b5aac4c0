import { parse } from 'yaml';
import { AuthConfig } from '../../src/config/schema/index.js';
import { compile } from '../../src/compile/index.js';
import type { Plan } from '../../src/compile/plan.js';

/** Validates YAML text with the format's schema (no loader: no env, no cross-checks) and compiles it. */
export function compileYaml(text: string): Plan {
  return compile(AuthConfig.parse(parse(text)));
}
