import type { DraftedConfig } from './build-config.js';
import { envName } from './names.js';

/** Secrets shorter than this are not looked for: `1` or `en` would be found everywhere. */
const MIN_SECRET_CHARS = 6;
/** Levels of the config object walked: a draft is a few levels deep. */
const MAX_DEPTH = 32;

/**
 * Replaces, in the drafted config, every recorded secret that a value of it still holds (a token
 * that is also part of a page's address, say) by a `${NAME}` read from the environment, with a
 * TODO that says where: the value is needed, so the draft keeps it, but never as recorded. The
 * render's guard is then only the last line of defence, not a refusal of the whole draft.
 *
 * @example
 * const kept = secretsAsReferences(drafted); // config strings with `${ALICE_URL}` where a token was
 */
export function secretsAsReferences(drafted: DraftedConfig): DraftedConfig {
  const secrets = [...drafted.secrets].filter((s) => s.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
  if (!secrets.length) return drafted;
  const env = new Map(drafted.env);
  const todos = [...drafted.todos];
  const names = new Map<string, string>();
  for (const [name, value] of env) names.set(value, name);
  const refOf = (secret: string, key: string): string => {
    let name = names.get(secret);
    if (!name) {
      const base = envName(drafted.user, key);
      name = base;
      for (let n = 2; env.has(name); n++) name = `${base}_${n}`;
      env.set(name, secret);
      names.set(secret, name);
    }
    return `\${${name}}`;
  };
  const walk = (value: unknown, key: string, path: string, depth: number): unknown => {
    if (typeof value === 'string') {
      let out = value;
      for (const secret of secrets) {
        if (!out.includes(secret)) continue;
        const ref = refOf(secret, key);
        out = out.split(secret).join(ref);
        todos.push(`${path} holds a value the recording also sent or received as a secret: it is read from ${ref.slice(2, -1)} (.env.example); check that it is the user's own, or replace it with what the server gives`);
      }
      return out;
    }
    if (depth >= MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((item, i) => walk(item, key, `${path}[${i}]`, depth + 1));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, walk(item, k, path ? `${path}.${k}` : k, depth + 1)]));
    }
    return value;
  };
  const config = walk(drafted.config, 'value', '', 0) as Record<string, unknown>;
  return { ...drafted, config, env, todos };
}
