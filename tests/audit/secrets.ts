import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

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
    const bytes = readFileSync(path);
    files.push({ name, text: bytes.toString('utf8') });
    if (isZip(bytes)) files.push(...zipMembers(bytes, `${name}#zip`));
    const embedded = /<template id="playwrightReportBase64">data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(files.at(-1)!.text);
    if (embedded) files.push(...zipMembers(Buffer.from(embedded[1]!, 'base64'), `${name}#zip`));
  };
  visit(dir);
  return files;
}

function isZip(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes.readUInt32LE(0) === 0x04034b50;
}

/** Unpacks a zip with python3's zipfile (node has no zip reader), recursing into nested zips. */
function zipMembers(zip: Buffer, prefix: string): OutputFile[] {
  const work = mkdtempSync(join(tmpdir(), 'multiauth-audit-zip-'));
  try {
    writeFileSync(join(work, 'archive.zip'), zip);
    const unzip = spawnSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', join(work, 'archive.zip'), join(work, 'out')], { encoding: 'utf8' });
    if (unzip.status !== 0) throw new Error(`cannot unzip ${prefix}: ${unzip.stderr}`);
    return outputFiles(join(work, 'out')).map((f) => ({ ...f, name: `${prefix}/${f.name}` }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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
