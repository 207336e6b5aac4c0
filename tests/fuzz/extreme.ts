import { stringify } from 'yaml';
import type { FuzzCase, SeedConfig } from './mutate.js';
import type { Random } from './prng.js';
import { randomCodePoint } from './values.js';

/**
 * An extreme input: deep flow, JSON or block nesting, a huge string or key, thousands of users,
 * unicode everywhere, an empty, scalar or binary document, a config repeated.
 *
 * @example
 * extremeCase(random, corpus, ['seed x']); // { ext: 'yaml', bytes: <users: [[[[...]]]]>, how: [..., 'flow nesting 5000 deep'] }
 */
export function extremeCase(random: Random, corpus: readonly SeedConfig[], how: string[]): FuzzCase {
  const depth = random.pick([64, 500, 2_000, 5_000]);
  const yaml = (text: string): FuzzCase => ({ ext: 'yaml', bytes: Buffer.from(text), how });
  switch (random.int(9)) {
    case 0:
      how.push(`flow nesting ${depth} deep`);
      return yaml(`users: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
    case 1:
      how.push(`JSON nesting ${depth} deep`);
      return { ext: 'json', bytes: Buffer.from(`{"users":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`), how };
    case 2: {
      const levels = Math.min(depth, 2_000);
      how.push(`block nesting ${levels} deep`);
      return yaml(`users:\n${Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- `).join('\n')}x\n`);
    }
    case 3: {
      const size = random.pick([100_000, 1_000_000, 3_000_000]);
      how.push(`huge ${size}-character user name`);
      return yaml(`users:\n  - name: ${'a'.repeat(size)}\n    credentials: { username: u, password: p }\n`);
    }
    case 4: {
      const count = random.pick([500, 2_000]);
      how.push(`${count} users`);
      const users = Array.from({ length: count }, (_, i) => `  - { name: user${i % (count - 7)}, credentials: { username: u${i}, password: pw${i} } }`);
      return yaml(`users:\n${users.join('\n')}\n`);
    }
    case 5: {
      how.push('unicode names, keys and values');
      const name = () => String.fromCodePoint(...Array.from({ length: 1 + random.int(8) }, () => randomCodePoint(random)));
      return yaml(stringify({ users: [{ name: name(), credentials: { username: name(), password: name() }, [name()]: name() }] }));
    }
    case 6: {
      const key = 'k'.repeat(random.pick([1_000, 200_000]));
      how.push(`a ${key.length}-character key`);
      return yaml(`${key}: 1\nusers: []\n`);
    }
    case 7: {
      how.push('a scalar, empty or binary document');
      const options = ['', ' \n\t\n', '# only a comment\n', '~\n', '---\n...\n', '[]', '42', '"users"', '\u0000\u0001\u0002', '\ufeff'];
      const pick = random.chance(0.8) ? Buffer.from(random.pick(options)) : Buffer.from(Array.from({ length: 64 }, () => random.int(256)));
      return { ext: random.chance(0.5) ? 'json' : 'yaml', bytes: pick, how };
    }
    default: {
      const seed = random.pick(corpus);
      how.push(`seed ${seed.name} repeated as ${random.chance(0.5) ? 'many documents' : 'one doubled file'}`);
      const sep = how.at(-1)?.endsWith('many documents') ? '\n---\n' : '\n';
      return yaml(Array.from({ length: 3 }, () => seed.text).join(sep));
    }
  }
}
