import { Document, Pair, Scalar, YAMLMap, YAMLSeq, parse } from 'yaml';
import { MultiAuthError } from '../../core/errors.js';
import { NotRegularFileError, readRegularFile } from '../../core/regular-file.js';

/** Options of {@link draftAccessRequests}. */
export interface DraftOptions {
  /** Draft unsafe operations too (POST, PUT, PATCH, DELETE), marked `unsafe: true`. */
  unsafe?: boolean;
  /** The user placeholders name when a path parameter has no example (default `OWNER`). */
  owner?: string;
  /** What the URLs start with (default `${BASE_URL}`, from the environment as everywhere). */
  base?: string;
}

/** Limits on what one document may cost: a published API description is far below them. */
export const OPENAPI_LIMITS = Object.freeze({
  fileBytes: 16 * 1024 * 1024,
  aliasCount: 1_000,
  operations: 2_000,
  dereferenceMs: 10_000,
});

const SAFE = ['get', 'head', 'options'] as const;
const UNSAFE = ['post', 'put', 'patch', 'delete'] as const;
const PATH_PARAMETER = /\{([^{}/]{1,200})\}/g;

interface Parameter {
  name?: unknown;
  in?: unknown;
  required?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown } | undefined>;
  schema?: { example?: unknown; examples?: unknown; default?: unknown; enum?: unknown };
}
type Operation = { operationId?: unknown; summary?: unknown; parameters?: Parameter[]; requestBody?: unknown };
type PathItem = Record<string, unknown> & { parameters?: Parameter[] };

/**
 * Reads an OpenAPI 3 document (YAML or JSON) from a file, bounded in size and alias expansion,
 * and dereferences its internal `$ref`s with `@readme/openapi-parser`; an external `$ref` (another
 * file, a URL) is left alone, so a drafted document never makes this command read the disk or the
 * network beyond the one file named.
 *
 * @throws MultiAuthError `OPENAPI_INVALID` when the file is missing, too large, not YAML or JSON, or
 *   not an OpenAPI 3 document.
 * @example
 * const api = await readOpenApi('openapi.yaml');
 * process.stdout.write(draftAccessRequests(api));
 */
export async function readOpenApi(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: OPENAPI_LIMITS.fileBytes });
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) throw error;
    throw invalid(error.message, 'Pass the path of an OpenAPI 3 document (YAML or JSON).');
  }
  let data: unknown;
  try {
    data = parse(text, { maxAliasCount: OPENAPI_LIMITS.aliasCount, logLevel: 'error' });
  } catch (error) {
    throw invalid(`${file}: not YAML or JSON (${String((error as Error).message).split('\n')[0]})`, 'Pass an OpenAPI 3 document as published (openapi.yaml or openapi.json).');
  }
  if (!isRecord(data) || typeof data.openapi !== 'string' || !data.openapi.startsWith('3.')) {
    const swagger = isRecord(data) && typeof data.swagger === 'string' ? data.swagger : undefined;
    throw invalid(`${file}: not an OpenAPI 3 document${swagger ? ` (Swagger ${oneLine(swagger)})` : ''}`, swagger ? 'Convert it to OpenAPI 3 first (for example with swagger2openapi).' : 'The document must start with `openapi: 3.x`.');
  }
  const { dereference } = await import('@readme/openapi-parser');
  try {
    // The parser's own types want a complete document; the checks above are what this command needs.
    return (await dereference(data as never, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
      timeoutMs: OPENAPI_LIMITS.dereferenceMs,
    })) as Record<string, unknown>;
  } catch (error) {
    throw invalid(`${file}: its $refs do not resolve (${String((error as Error).message).split('\n')[0]?.slice(0, 200)})`, 'Fix the $ref named above; only references inside the document are followed.');
  }
}

/**
 * Drafts `access.requests` from an OpenAPI 3 document's operations, as YAML text to add to a
 * config: one request per operation, named by its `operationId` (else its summary, else `METHOD
 * path`), its URL the first server's path under `${BASE_URL}`. A path parameter takes its example
 * (the parameter's, its first of `examples`, its schema's example, default or first enum value);
 * without one it becomes `{{ users.OWNER.NAME }}` with a TODO comment: the user who owns such an
 * object declares it in its `variables`, which is what makes the check object-level. Required query
 * parameters are filled the same way. Safe operations only (GET, HEAD, OPTIONS) unless `unsafe`,
 * which adds the others marked `unsafe: true`. At most {@link OPENAPI_LIMITS}`.operations`.
 *
 * @example
 * draftAccessRequests(await readOpenApi('petstore.yaml'));
 * // access:
 * //   requests:
 * //     # TODO: the user that owns the object declares petId in its variables (rename OWNER)
 * //     - name: getPetById
 * //       method: GET
 * //       url: ${BASE_URL}/api/v3/pet/{{ users.OWNER.petId }}
 */
export function draftAccessRequests(api: Record<string, unknown>, options: DraftOptions = {}): string {
  const owner = options.owner ?? 'OWNER';
  const base = `${options.base ?? '${BASE_URL}'}${serverPath(api)}`;
  const methods: readonly string[] = options.unsafe ? [...SAFE, ...UNSAFE] : SAFE;
  const doc = new Document({});
  const requests = new YAMLSeq();
  const names = new Set<string>();
  let skipped = 0;
  let cut = 0;
  const paths = isRecord(api.paths) ? api.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    if (!isRecord(rawItem)) continue;
    const item = rawItem as PathItem;
    for (const method of [...SAFE, ...UNSAFE]) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      if (!methods.includes(method)) {
        skipped++;
        continue;
      }
      if (requests.items.length >= OPENAPI_LIMITS.operations) {
        cut++;
        continue;
      }
      const drafted = draftOne(path, method, item, operation as Operation, owner);
      const node = new YAMLMap();
      node.add(new Pair('name', uniqueName(names, drafted.name)));
      node.add(new Pair('method', method.toUpperCase()));
      node.add(new Pair('url', `${base}${drafted.path}${drafted.query}`));
      if (!SAFE.includes(method as (typeof SAFE)[number])) node.add(new Pair('unsafe', true));
      if (drafted.todo.length > 0) node.commentBefore = ` TODO: the user that owns the object declares ${drafted.todo.join(', ')} in its variables (rename ${owner})`;
      requests.items.push(node);
    }
  }
  const access = new YAMLMap();
  access.add(new Pair('requests', requests));
  (doc.contents as YAMLMap).add(new Pair('access', access));
  const title = isRecord(api.info) && typeof api.info.title === 'string' ? oneLine(api.info.title) : 'the OpenAPI document';
  const notes = [`Drafted by multiauth matrix --from-openapi from ${title}: ${requests.items.length} request${requests.items.length === 1 ? '' : 's'}.`];
  if (skipped > 0) notes.push(`${skipped} unsafe operation${skipped === 1 ? '' : 's'} (POST, PUT, PATCH, DELETE) left out: --unsafe drafts them.`);
  if (cut > 0) notes.push(`${cut} more operation${cut === 1 ? '' : 's'} left out: at most ${OPENAPI_LIMITS.operations} are drafted.`);
  notes.push('Review every request, then record the expectations with multiauth matrix --update.');
  doc.commentBefore = notes.map((note) => ` ${note}`).join('\n');
  if (requests.items.length === 0) requests.flow = true;
  return doc.toString({ lineWidth: 0 });
}

function draftOne(path: string, method: string, item: PathItem, operation: Operation, owner: string) {
  const parameters = [...(Array.isArray(operation.parameters) ? operation.parameters : []), ...(Array.isArray(item.parameters) ? item.parameters : [])].filter(isRecord) as Parameter[];
  const todo: string[] = [];
  const valueOf = (parameter: Parameter | undefined, name: string): string => {
    const example = parameter && exampleOf(parameter);
    if (example !== undefined) return encodeURIComponent(String(example));
    const variable = variableName(name);
    if (!todo.includes(variable)) todo.push(variable);
    return `{{ users.${owner}.${variable} }}`;
  };
  const find = (name: string, where: string) => parameters.find((p) => p.in === where && p.name === name);
  const filled = path.replace(PATH_PARAMETER, (_, name: string) => valueOf(find(name, 'path'), name));
  const query = parameters
    .filter((p) => p.in === 'query' && p.required === true && typeof p.name === 'string')
    .map((p) => `${encodeURIComponent(p.name as string)}=${valueOf(p, p.name as string)}`);
  const id = typeof operation.operationId === 'string' ? operation.operationId : typeof operation.summary === 'string' ? operation.summary : '';
  return { name: oneLine(id) || `${method.toUpperCase()} ${path}`, path: filled, query: query.length ? `?${query.join('&')}` : '', todo };
}

/** The parameter's own example, its first named example, then what its schema suggests. */
function exampleOf(parameter: Parameter): unknown {
  const scalar = (value: unknown) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined);
  const named = isRecord(parameter.examples) ? Object.values(parameter.examples).find((e) => isRecord(e) && scalar(e.value) !== undefined) : undefined;
  const schema = isRecord(parameter.schema) ? parameter.schema : {};
  const listed = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  const enumerated = Array.isArray(schema.enum) ? schema.enum[0] : undefined;
  return [parameter.example, named?.value, schema.example, listed, schema.default, enumerated].map(scalar).find((value) => value !== undefined);
}

/** The first server's path (`/v3`, or the path of an absolute URL), its `{variables}` at their defaults. */
function serverPath(api: Record<string, unknown>): string {
  const server = Array.isArray(api.servers) && isRecord(api.servers[0]) ? api.servers[0] : undefined;
  if (!server || typeof server.url !== 'string') return '';
  const variables = isRecord(server.variables) ? server.variables : {};
  const url = server.url.replace(PATH_PARAMETER, (whole, name: string) => {
    const variable = Object.hasOwn(variables, name) ? variables[name] : undefined;
    return isRecord(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') : url;
  return path.replace(/\/+$/, '');
}

/** A template variable name from a parameter name (`pet-id` -> `pet_id`). */
function variableName(name: string): string {
  const cleaned = name.replace(/[^\w]/g, '_').slice(0, 100);
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function uniqueName(names: Set<string>, name: string): Scalar {
  let unique = name;
  for (let n = 2; names.has(unique); n++) unique = `${name} (${n})`;
  names.add(unique);
  return new Scalar(unique);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 120);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function invalid(message: string, hint: string): MultiAuthError {
  return new MultiAuthError('OPENAPI_INVALID', message, { hint });
}
