import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { unzipSync } from 'fflate';

/**
 * The secret values of the session files in a `.auth/` directory: header values (and the token
 * after a `Bearer ` prefix), cookie values and extracted variables. Short or numeric values
 * (`expires_in: 300`, `token_type: Bearer`) are not secrets and would match anywhere.
 *
 * @example
 * sessionSecrets('.tmp-audit/demo-x/.auth'); // ['eyJhbGciOi…', 'sid-3f9c…', …]
 */
export function sessionSecrets(authDir: string): string[] {
  const found = new Set<string>();
  for (const name of readdirSync(authDir).filter((n) => n.endsWith('.json'))) {
    const { session } = JSON.parse(readFileSync(join(authDir, name), 'utf8')) as {
      session: { headers: Record<string, string[]>; cookies: Array<{ value: string }>; variables: Record<string, string> };
    };
    const values = [
      ...Object.values(session.headers).flat(),
      ...session.cookies.map((c) => c.value),
      ...Object.values(session.variables),
    ];
    for (const value of values) {
      for (const part of [value, value.replace(/^\S+\s+/, '')]) if (isSecretLike(part)) found.add(part);
    }
  }
  return [...found];
}

function isSecretLike(value: string): boolean {
  return value.length >= 12 && !/^\d+$/.test(value) && !/\s/.test(value);
}

/** One file of a run's output, with where it came from (an archive's members are named inside it). */
export interface OutputFile {
  name: string;
  text: string;
}

/**
 * Every file under `dir` (except the names in `skip`), read as text; zip archives and the HTML
 * report's embedded base64 zip are unpacked and their members listed too.
 *
 * @example
 * outputFiles(copy.dir, ['.auth', 'multiauth.yaml']).map((f) => f.name); // ['report.json', 'html-report/index.html', 'html-report/index.html#zip/report.json', …]
 */
export function outputFiles(dir: string, skip: string[] = []): OutputFile[] {
  const files: OutputFile[] = [];
  const visit = (path: string): void => {
    const name = relative(dir, path);
    if (skip.includes(name)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
      return;
    }
    addFile(files, name, readFileSync(path), 0);
  };
  visit(dir);
  return files;
}

/** Zips inside zips go no deeper than this (a trace in the HTML report's data is two deep). */
const MAX_ZIP_DEPTH = 4;

/** `bytes` as a file named `name`, then the members of the zip it is or embeds (in base64), named `<name>#zip/<member>`. */
function addFile(files: OutputFile[], name: string, bytes: Uint8Array, depth: number): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  files.push({ name, text });
  if (depth >= MAX_ZIP_DEPTH) return;
  if (isZip(bytes)) addZipMembers(files, bytes, `${name}#zip`, depth + 1);
  const embedded = /<template id="playwrightReportBase64">data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(text);
  if (embedded) addZipMembers(files, Buffer.from(embedded[1]!, 'base64'), `${name}#zip`, depth + 1);
}

function isZip(bytes: Uint8Array): boolean {
  return bytes.length > 4 && Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) === 0x04034b50;
}

/**
 * Unpacks a zip in this process with fflate (a python3 per archive cost a process start for each
 * of the dozens of traces a run leaves: issue 36), recursing into nested zips.
 */
function addZipMembers(files: OutputFile[], zip: Uint8Array, prefix: string, depth: number): void {
  let members: Record<string, Uint8Array>;
  try {
    members = unzipSync(zip);
  } catch (error) {
    throw new Error(`cannot unzip ${prefix}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // A folder's entry holds nothing to search; members sorted as a folder walk lists them.
  for (const member of Object.keys(members).filter((m) => !m.endsWith('/')).sort()) addFile(files, `${prefix}/${member}`, members[member]!, depth);
}

/**
 * Where each secret appears: `"<file>: <which secret>"` lines, empty when nothing leaked. The
 * secret is named by its index and first characters only, so the report does not leak it in turn.
 *
 * @example
 * findLeaks([{ name: 'stdout', text: '… alice-password …' }], ['alice-password']); // ['stdout: secret #0 (alic…)']
 */
export function findLeaks(files: OutputFile[], secrets: string[]): string[] {
  const leaks: string[] = [];
  for (const file of files) {
    secrets.forEach((secret, i) => {
      if ([secret, ...base64Forms(secret)].some((form) => file.text.includes(form))) leaks.push(`${file.name}: secret #${i} (${secret.slice(0, 4)}…)`);
    });
  }
  return leaks;
}

/**
 * The secret as it shows inside any base64 text (attachments in the JSON report are base64): one
 * form per alignment, without the characters that also depend on neighbouring bytes.
 *
 * @example
 * base64Forms('alice-password'); // ['YWxpY2UtcGFzc3dv', 'FsaWNlLXBhc3N3b3Jk', 'hbGljZS1wYXNzd29y']
 */
export function base64Forms(secret: string): string[] {
  return [0, 1, 2].map((pad) => {
    const encoded = Buffer.concat([Buffer.alloc(pad), Buffer.from(secret)]).toString('base64');
    const end = Math.floor((pad + Buffer.byteLength(secret)) / 3) * 4;
    return encoded.slice([0, 2, 3][pad], end);
  });
}
