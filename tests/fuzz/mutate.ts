import { stringify } from 'yaml';
import { extremeCase } from './extreme.js';
import type { Random } from './prng.js';
import { randomValue, STRANGE_STRINGS } from './values.js';

/** A config the corpus starts from: its text and, when it parses, its value. */
export interface SeedConfig {
  name: string;
  text: string;
  value?: unknown;
}

/** One generated input: the file's bytes, its extension, and the mutations that made it (for the report). */
export interface FuzzCase {
  ext: 'yaml' | 'json';
  bytes: Buffer;
  how: string[];
}

type Container = Record<string, unknown> | unknown[];
interface Slot {
  parent: Container;
  key: string | number;
}

/** YAML and template syntax that tends to confuse parsers and validators. */
const SYNTAX = [
  ':', ': ', '- ', '-', '{', '}', '[', ']', ',', '"', "'", '&a ', '*a', '!!binary ', '!!int ', '!custom ', '? ', '<<: *a',
  '---\n', '...\n', '%YAML 1.2\n', '\t', '\n', '\r', '#', '|', '>-', '${', '${NOT_SET}', '$${', '{{', '}}', '{{ user }}',
  '\\', '\u0000', '\ufeff', '\u202e', '0x', '.inf', '~', 'null', '=', '@', '`', '$(id)', '|| true',
];

/**
 * Makes one case from the corpus: structural mutations of a parsed config (delete, rename, swap,
 * duplicate, retype, graft from another config), text and byte mutations (truncate, insert bytes
 * and YAML syntax, duplicate or shift lines), or an extreme input (deep nesting, huge strings,
 * many items, odd encodings).
 *
 * @example
 * const fuzzCase = makeCase(random, corpus); // { ext: 'yaml', bytes, how: ['seed 01-...', 'delete users[0].name'] }
 */
export function makeCase(random: Random, corpus: readonly SeedConfig[]): FuzzCase {
  const seed = random.pick(corpus);
  const how = [`seed ${seed.name}`];
  const roll = random.next();
  if (roll < 0.05) return extremeCase(random, corpus, how);
  if (roll < 0.55 && seed.value !== undefined) {
    const value = structuredClone(seed.value);
    const donors = corpus.filter((c) => c.value !== undefined);
    let root: unknown = value;
    for (let i = 0, n = 1 + random.int(4); i < n; i++) root = mutateValue(random, root, donors, how);
    return serialise(random, root, how);
  }
  let bytes: Buffer = Buffer.from(seed.text, 'utf8');
  for (let i = 0, n = 1 + random.int(4); i < n; i++) bytes = mutateBytes(random, bytes, how);
  return { ext: seed.name.endsWith('.json') && random.chance(0.7) ? 'json' : 'yaml', bytes, how };
}

function mutateValue(random: Random, root: unknown, donors: readonly SeedConfig[], how: string[]): unknown {
  const slots = collectSlots(root);
  if (slots.length === 0) {
    how.push('replace the root');
    return randomValue(random);
  }
  const slot = random.pick(slots);
  const at = slotName(slot);
  const current = (slot.parent as Record<string | number, unknown>)[slot.key];
  const set = (v: unknown) => ((slot.parent as Record<string | number, unknown>)[slot.key] = v);
  switch (random.int(9)) {
    case 0:
      how.push(`delete ${at}`);
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
      else delete slot.parent[slot.key as string];
      break;
    case 1: {
      const renamed = random.chance(0.5) ? typo(random, String(slot.key)) : String(randomValue(random, 0));
      how.push(`rename ${at} to ${JSON.stringify(renamed).slice(0, 40)}`);
      if (!Array.isArray(slot.parent)) {
        delete slot.parent[slot.key as string];
        slot.parent[renamed] = current;
      }
      break;
    }
    case 2: {
      const other = random.pick(slots);
      how.push(`swap ${at} with ${slotName(other)}`);
      const otherValue = (other.parent as Record<string | number, unknown>)[other.key];
      set(otherValue);
      (other.parent as Record<string | number, unknown>)[other.key] = current;
      break;
    }
    case 3:
      how.push(`retype ${at}`);
      set(randomValue(random));
      break;
    case 4:
      how.push(`duplicate ${at}`);
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 0, structuredClone(current));
      else set([current, current]);
      break;
    case 5: {
      const donor = collectSlots(random.pick(donors).value);
      if (donor.length) {
        const graft = random.pick(donor);
        how.push(`graft ${slotName(graft)} onto ${at}`);
        set(structuredClone((graft.parent as Record<string | number, unknown>)[graft.key]));
      }
      break;
    }
    case 6:
      how.push(`wrap ${at}`);
      set(random.chance(0.5) ? [current] : { [String(slot.key)]: current });
      break;
    case 7:
      how.push(`empty ${at}`);
      set(random.pick([{}, [], '', null]));
      break;
    default:
      how.push(`strange string at ${at}`);
      set(random.pick(STRANGE_STRINGS) + (typeof current === 'string' ? current : ''));
  }
  return root;
}

function collectSlots(root: unknown, out: Slot[] = [], depth = 0): Slot[] {
  if (depth > 40 || root === null || typeof root !== 'object') return out;
  const container = root as Container;
  const keys: Array<string | number> = Array.isArray(container) ? container.map((_, i) => i) : Object.keys(container);
  for (const key of keys) {
    out.push({ parent: container, key });
    collectSlots((container as Record<string | number, unknown>)[key], out, depth + 1);
  }
  return out;
}

function slotName(slot: Slot): string {
  return typeof slot.key === 'number' ? `[${slot.key}]` : `.${slot.key.slice(0, 30)}`;
}

function typo(random: Random, word: string): string {
  if (word.length < 2) return `${word}_`;
  const i = random.int(word.length - 1);
  switch (random.int(4)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2);
    case 2:
      return word.toUpperCase();
    default:
      return word.replace(/_/g, '') || `${word}s`;
  }
}

function serialise(random: Random, value: unknown, how: string[]): FuzzCase {
  if (random.chance(0.3)) {
    how.push('as JSON');
    try {
      return { ext: 'json', bytes: Buffer.from(JSON.stringify(value, null, random.chance(0.5) ? 2 : undefined) ?? 'null'), how };
    } catch {
      how.push('(circular: as YAML instead)');
    }
  }
  let text: string;
  try {
    text = stringify(value, { aliasDuplicateObjects: random.chance(0.5) });
  } catch {
    // A swap can put a node inside itself: only anchors and aliases can write that (`&a [*a]`).
    how.push('with aliases');
    text = stringify(value, { aliasDuplicateObjects: true });
  }
  return { ext: 'yaml', bytes: Buffer.from(text), how };
}

function mutateBytes(random: Random, bytes: Buffer, how: string[]): Buffer {
  const at = random.int(bytes.length + 1);
  const lines = () => bytes.toString('utf8').split('\n');
  switch (random.int(8)) {
    case 0:
      how.push(`truncate at ${at}`);
      return bytes.subarray(0, at);
    case 1: {
      const junk = Buffer.from(Array.from({ length: 1 + random.int(16) }, () => random.int(256)));
      how.push(`insert bytes ${junk.toString('hex')} at ${at}`);
      return Buffer.concat([bytes.subarray(0, at), junk, bytes.subarray(at)]);
    }
    case 2: {
      const token = random.pick(SYNTAX);
      how.push(`insert ${JSON.stringify(token)} at ${at}`);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(token), bytes.subarray(at)]);
    }
    case 3: {
      const all = lines();
      const i = random.int(all.length);
      how.push(`duplicate line ${i + 1}`);
      all.splice(i, 0, all[i] ?? '');
      return Buffer.from(all.join('\n'));
    }
    case 4: {
      const all = lines();
      const i = random.int(all.length);
      how.push(`delete line ${i + 1}`);
      all.splice(i, 1);
      return Buffer.from(all.join('\n'));
    }
    case 5: {
      const all = lines();
      const i = random.int(all.length);
      const j = random.int(all.length);
      how.push(`swap lines ${i + 1} and ${j + 1}`);
      [all[i], all[j]] = [all[j] ?? '', all[i] ?? ''];
      return Buffer.from(all.join('\n'));
    }
    case 6: {
      const all = lines();
      const i = random.int(all.length);
      const shift = random.pick(['  ', ' ', '\t', '-']);
      const out = random.chance(0.5) ? shift + (all[i] ?? '') : (all[i] ?? '').replace(/^\s{1,2}/, '');
      how.push(`reindent line ${i + 1}`);
      all[i] = out;
      return Buffer.from(all.join('\n'));
    }
    default:
      how.push(random.chance(0.5) ? 'CRLF line ends' : 'byte order mark');
      return how.at(-1) === 'CRLF line ends'
        ? Buffer.from(bytes.toString('utf8').replace(/\n/g, '\r\n'))
        : Buffer.concat([Buffer.from('\ufeff'), bytes]);
  }
}
