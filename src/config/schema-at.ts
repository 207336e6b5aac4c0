import type { core } from 'zod';
import type { ConfigPath } from '../core/path.js';

/** The parts of a zod definition this walker reads (zod 4 keeps them on `schema._zod.def`). */
interface Def {
  type: string;
  innerType?: core.$ZodType;
  element?: core.$ZodType;
  shape?: Record<string, core.$ZodType>;
  options?: core.$ZodType[];
  discriminator?: string;
  valueType?: core.$ZodType;
  in?: core.$ZodType;
}

function defOf(schema: core.$ZodType): Def {
  return schema._zod.def as unknown as Def;
}

/** Strips `optional`, `default`, `nullable`, `pipe`... down to the schema that checks the value. */
function unwrap(schema: core.$ZodType): core.$ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
}

/** The union option that `value` is meant to be: by discriminator, else by its JSON kind. */
function optionFor(def: Def, value: unknown): core.$ZodType | undefined {
  const options = def.options ?? [];
  if (def.discriminator !== undefined && isObject(value)) {
    const tag = value[def.discriminator];
    return options.find((option) => {
      const values = (unwrap(option)._zod as { propValues?: Record<string, Set<unknown>> }).propValues;
      return values?.[def.discriminator!]?.has(tag);
    });
  }
  const kind = Array.isArray(value) ? 'array' : isObject(value) ? 'object' : typeof value;
  return options.find((option) => {
    const type = defOf(unwrap(option)).type;
    return type === kind || (kind === 'object' && type === 'record');
  });
}

/**
 * The schema that validates the value at `path` of `data`, following the data through unions
 * (by discriminator, else by the value's kind); `undefined` when the path leaves the schema.
 *
 * @example
 * schemaAt(AuthConfig, ['users', 0, 'credentials'], data); // the Credentials object schema
 */
export function schemaAt(root: core.$ZodType, path: ConfigPath, data: unknown): core.$ZodType | undefined {
  let schema: core.$ZodType | undefined = unwrap(root);
  let value = data;
  for (const key of path) {
    if (!schema) return undefined;
    let def = defOf(schema);
    if (def.type === 'union') {
      schema = optionFor(def, value);
      if (!schema) return undefined;
      schema = unwrap(schema);
      def = defOf(schema);
    }
    if (def.type === 'object') schema = def.shape?.[String(key)];
    else if (def.type === 'array') schema = def.element;
    else if (def.type === 'record') schema = def.valueType;
    else return undefined;
    schema = schema && unwrap(schema);
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key as string] : undefined;
  }
  if (schema && defOf(schema).type === 'union') return unwrap(optionFor(defOf(schema), value) ?? schema);
  return schema;
}

/**
 * The keys an object schema accepts, in declaration order (empty when `schema` is not an object).
 *
 * @example
 * objectKeys(TokenInjection); // ['location', 'key', 'prefix', 'variable']
 */
export function objectKeys(schema: core.$ZodType | undefined): string[] {
  if (!schema) return [];
  const def = defOf(unwrap(schema));
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

/**
 * Whether `value` is a plain object (not null, not a list).
 *
 * @example
 * isObject({ a: 1 }); // true
 * isObject([1]);      // false
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
