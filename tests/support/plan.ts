import { compile } from '../../src/compile/compile.js';
import type { Plan } from '../../src/compile/plan.js';
import { loadConfig } from '../../src/config/index.js';
import { writeTempConfig } from './temp-files.js';

/**
 * Writes `text` to a temporary `multiauth.yaml`, loads it as users do (`env` for its `${NAME}`s,
 * nothing of this process's environment; validation) and compiles it. Servers' URLs go in with a
 * template literal.
 *
 * @example
 * const plan = planFromYaml(`users: [{ name: alice, credentials: { username: alice, password: x } }]`);
 * const withEnv = planFromYaml(yaml, { ALICE_PASSWORD: 'alice-password' });
 */
export function planFromYaml(text: string, env: Record<string, string> = {}): Plan {
  const { file, remove } = writeTempConfig(text);
  try {
    return compile(loadConfig(file, { env }).config);
  } finally {
    remove();
  }
}
