/**
 * Rewrites of the JSON Schema that zod generates, for editors (yaml-language-server and the JSON
 * language service behind VS Code). They change how an editor reads the schema, never which
 * configs the loader accepts: zod still validates, and it stays the one source of the keys.
 */

type JsonSchema = Record<string, unknown>;

/** What a plain `${NAME}` looks like before it is substituted (config/env.ts `NAME`). */
export const ENV_REFERENCE_PATTERN = '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$';

/**
 * The schema of a value written as one `${NAME}`. No description of its own: an editor shows the
 * first description it meets from the innermost schema out, and the key's own says more.
 */
const ENV_REFERENCE: JsonSchema = { type: 'string', pattern: ENV_REFERENCE_PATTERN };

/**
 * The schema keywords whose values are schemas (or lists or maps of schemas) to walk into. Not
 * `if`: the tests {@link discriminate} writes must match the literal values only.
 */
const SUBSCHEMA_KEYS = ['items', 'additionalProperties', 'propertyNames', 'not', 'then', 'else'] as const;
const SUBSCHEMA_LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/** Beyond any real depth of the format: a guard against a cycle, never reached by a valid schema. */
const MAX_DEPTH = 64;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Replaces every direct subschema of `schema` (properties, items, branches...) by what `visit` returns for it. */
function mapSubschemas(schema: JsonSchema, visit: (child: JsonSchema) => JsonSchema, depth: number): void {
  if (depth > MAX_DEPTH) throw new Error(`the JSON Schema is nested deeper than ${MAX_DEPTH} levels`);
  for (const key of SUBSCHEMA_KEYS) {
    const child = schema[key];
    if (isSchema(child)) schema[key] = visit(child);
  }
  for (const key of SUBSCHEMA_LIST_KEYS) {
    const list = schema[key];
    if (Array.isArray(list)) schema[key] = list.map((child) => (isSchema(child) ? visit(child) : child));
  }
  const properties = schema.properties;
  if (isSchema(properties)) {
    const visited: JsonSchema = {};
    for (const name of Object.keys(properties)) {
      const child = properties[name];
      // defineProperty: a key named __proto__ stays a key, never the object's prototype.
      Object.defineProperty(visited, name, { value: isSchema(child) ? visit(child) : child, enumerable: true, writable: true, configurable: true });
    }
    schema.properties = visited;
  }
}

/** The discriminator of a `oneOf` whose branches are objects that each require a fixed `key`. */
function discriminatorOf(branches: unknown[]): string | undefined {
  const first = branches[0];
  if (!isSchema(first) || !isSchema(first.properties)) return undefined;
  for (const key of Object.keys(first.properties)) {
    const fixed = branches.every((branch) => isSchema(branch) && branch.type === 'object' && isSchema(branch.properties)
      && Array.isArray(branch.required) && branch.required.includes(key) && fixedValues(branch.properties[key]) !== undefined);
    if (fixed) return key;
  }
  return undefined;
}

/** The values a `const` or `enum` schema allows, or undefined for any other schema. */
function fixedValues(schema: unknown): unknown[] | undefined {
  if (!isSchema(schema)) return undefined;
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

/**
 * A discriminated `oneOf` as one object whose discriminator lists every value, plus one
 * `if`/`then` per branch. An editor then offers every value after `type:` whatever else the object
 * holds, and checks the object against its own branch only, where with `oneOf` it guesses the
 * "best" branch from the other keys (offering 2 of 14 preset types, or a wrong "Missing property").
 */
function discriminate(schema: JsonSchema): JsonSchema {
  const branches = schema.oneOf;
  if (!Array.isArray(branches) || branches.length < 2) return schema;
  const key = discriminatorOf(branches);
  if (key === undefined) return schema;
  const values = branches.flatMap((branch) => fixedValues((branch as { properties: JsonSchema }).properties[key]) ?? []);
  const firstTag = (branches[0] as { properties: JsonSchema }).properties[key] as JsonSchema;
  const { oneOf: _oneOf, ...rest } = schema;
  return {
    ...rest,
    type: 'object',
    properties: { [key]: { ...(firstTag.description === undefined ? {} : { description: firstTag.description }), type: 'string', enum: values } },
    required: [key],
    allOf: branches.map((branch) => {
      const tag = (branch as { properties: JsonSchema }).properties[key] as JsonSchema;
      return { if: { type: 'object', properties: { [key]: tag }, required: [key] }, then: branch };
    }),
  };
}

/**
 * Puts back the literal tag of each branch of a discriminated schema: a branch applies only once
 * its `if` saw a literal value, so a `${NAME}` there would only blur what completion offers.
 */
function keepBranchTags(schema: JsonSchema): void {
  if (!Array.isArray(schema.allOf)) return;
  for (const item of schema.allOf) {
    const test = isSchema(item) && isSchema(item.if) && isSchema(item.if.properties) ? item.if.properties : undefined;
    const branch = isSchema(item) && isSchema(item.then) && isSchema(item.then.properties) ? item.then.properties : undefined;
    if (!test || !branch) continue;
    for (const key of Object.keys(test)) if (Object.hasOwn(branch, key)) Object.defineProperty(branch, key, { value: test[key], enumerable: true, writable: true, configurable: true });
  }
}

/** Whether a schema checks a scalar that is not a free string: a number, a boolean, an enumeration, a constant. */
function isTypedScalar(schema: JsonSchema): boolean {
  if ('const' in schema || Array.isArray(schema.enum)) return true;
  return schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean';
}

/**
 * Lets a plain `${NAME}` stand wherever the loader would accept the value it is replaced by
 * (`timeout: ${T}`, `insecure: ${B}`, `method: ${M}`): the editor sees the reference as a string.
 * A description stays on the outer schema, where hovers read it.
 */
function acceptEnvReference(schema: JsonSchema): JsonSchema {
  if (!isTypedScalar(schema)) return schema;
  const { description, default: fallback, ...check } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    anyOf: [check, ENV_REFERENCE],
  };
}

/** Splices `anyOf` branches that are themselves a bare `anyOf` into their parent, and keeps one `${NAME}` branch. */
function flattenAnyOf(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.anyOf)) return schema;
  const flat: unknown[] = [];
  for (const branch of schema.anyOf) {
    const nested = isSchema(branch) && Object.keys(branch).every((k) => k === 'anyOf' || k === 'description') ? branch.anyOf : undefined;
    for (const item of Array.isArray(nested) ? nested : [branch]) {
      if (item === ENV_REFERENCE && flat.includes(ENV_REFERENCE)) continue;
      flat.push(item);
    }
  }
  return { ...schema, anyOf: flat };
}

/**
 * The editor's form of a generated schema: discriminated unions as `if`/`then` on their
 * discriminator, and `${NAME}` accepted by every number, boolean and enumeration (the
 * discriminators included: an unknown `type` then checks nothing more, as the loader substitutes
 * first). Returns a new schema; `schema` is not changed.
 *
 * @example
 * editorSchema(z.toJSONSchema(AuthConfig, { io: 'input', target: 'draft-2020-12' }));
 */
export function editorSchema(schema: JsonSchema): JsonSchema {
  const visit = (node: JsonSchema, depth: number): JsonSchema => {
    // Discriminated first, while the branches' tags are still plain constants.
    const copy: JsonSchema = discriminate({ ...node });
    mapSubschemas(copy, (child) => visit(child, depth + 1), depth);
    keepBranchTags(copy);
    return flattenAnyOf(acceptEnvReference(copy));
  };
  return JSON.parse(JSON.stringify(visit(schema, 0))) as JsonSchema;
}
