import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ownFile } from '../core/call-site.js';
import { packageRoot } from '../core/package-files.js';
import { readRegularFile } from '../core/regular-file.js';
import { ensureCacheDir } from './cache-dir.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';
import type { Plan, PlanUser } from '../compile/index.js';
import type { OpenedConfig } from './open-config.js';
import type { MailSource } from '../runtime/index.js';
import { userCacheKey } from './user-key.js';
import { planOrigins } from './plan-origins.js';

/**
 * What the first worker of a run learned by opening the config (reading, validating, compiling it),
 * for the other workers of the run: with it and a cached session they start without opening the
 * config again, which costs more CPU than everything else a worker does before its first test.
 * It holds only what is no secret: hashes, user names, the scope's URLs, which users use mTLS, have
 * no procedure, or need the config's credentials.
 */
export interface RunDigest {
  /** The run that wrote it (`runId`); a digest of another run is not used. */
  run: string;
  /** The config's content hash (`LoadedConfig.contentHash`). */
  contentHash: string;
  /** The configured users, in order. */
  users: string[];
  /** Each user's session cache key ({@link userCacheKey}), in the order of `users`. */
  userKeys: string[];
  /** The plan's `scope`: origins that receive the injected credentials. */
  scope: string[];
  /** Users whose requests present the config's mTLS certificates. */
  mtlsUsers: string[];
  /** Users without a procedure: their whole session is the config's static credentials, never cached. */
  staticUsers: string[];
  /**
   * Users whose cached sign-in needs the config to become a session: static credentials to fold in
   * (headers, cookies, query, body, Basic), a digest password to answer with, or a passkey's private key.
   */
  configUsers: string[];
  /** Users with a session check (`validation`): their cached sessions are checked once per run. */
  checkedUsers: string[];
  /** Users a 401 does not sign in again (`reauth: false`, theirs or the top level's). */
  noReauthUsers: string[];
  /** Users whose "signed out" answers are not the default (HTTP 401 alone): theirs (`reauth`). */
  reauthRules: Array<{ user: string; onStatus: number[]; onRedirect: string[]; onBody?: string[] }>;
  /** Origins the users sign in and are validated at ({@link planOrigins}): compared with Playwright's `baseURL`. */
  origins: string[];
  /** The access matrix's users (`anonymous` included) and request names in run order, when the config has one: `accessMatrix()` declares its tests from them. */
  access?: { users: string[]; requests: string[] };
  /** The config's mail source (`mail`), when it has one: `mailSink()` reads the sink's ports from it while `playwright.config.ts` loads. */
  mail?: MailSource;
  /** Users who sign in (and refresh) with HTTP requests alone: what the runner's sign-in ahead may sign in. */
  httpUsers: string[];
  /** Users who sign in with browser steps and HTTP requests alone: what the runner may sign in on a browser of its own. */
  browserUsers: string[];
  /** How many warnings the opening found (shown once per run by the process that opened the config). */
  warnings: number;
  /** The package build that wrote it ({@link packageBuild}): another version may check the same text otherwise. */
  build: string;
  /** Whether the plan passed `checkPlan` and `preflight` too (the fixtures' opening), not only compiled (the role matrix's). */
  checked: boolean;
}

/** `${NAME}` references as the config's env substitution reads them. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** The loader's bound on a config (and its `.env`): `CONFIG_LIMITS.fileBytes`. */
const CONFIG_FILE_BYTES = 8 * 1024 * 1024;

/**
 * A key for a config file as the environment would substitute it, computed without parsing it:
 * SHA-256 over the file's text, the `.env` beside it, and the value of every `${NAME}` the text names.
 * Two workers of one run get the same key for the same config; any edit or changed value gives another.
 *
 * @example
 * quickConfigKey('/repo/multiauth.yaml', process.env); // '3f2a…' (64 hex digits)
 */
export function quickConfigKey(file: string, env: Record<string, string | undefined>): string {
  // Never blocks on a FIFO nor reads a device: opening the config then says what is wrong, located.
  const text = readRegularFile(file, { maxBytes: CONFIG_FILE_BYTES });
  let dotenv = '';
  try {
    dotenv = readRegularFile(join(dirname(file), '.env'), { maxBytes: CONFIG_FILE_BYTES });
  } catch {
    // No .env: the environment alone fills the references.
  }
  const names = [...new Set(Array.from(text.matchAll(REFERENCE), (m) => m[1] as string))].sort();
  const hash = createHash('sha256').update('multiauth-run-digest-1\0').update(text).update('\0').update(dotenv);
  for (const name of names) hash.update(`\0${name}\0${env[name] === undefined ? '\u0001unset' : env[name]}`);
  return hash.digest('hex');
}

let build: string | undefined;

/**
 * This copy of the package: its version and when its modules were written (a rebuild of the same
 * version is another build). A digest written by another build is not taken as checked.
 *
 * @example
 * packageBuild(); // '0.1.0:1795870000000'
 */
export function packageBuild(): string {
  if (build !== undefined) return build;
  let version: unknown = '';
  let written = 0;
  try {
    written = statSync(ownFile()).mtimeMs;
    version = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }).version;
  } catch {
    // No manifest beside the modules: the modules' time alone tells builds apart.
  }
  return (build = `${typeof version === 'string' ? version.slice(0, 100) : ''}:${written}`);
}

/**
 * The digest of the last run for a config whose key ({@link quickConfigKey}: its text, .env and
 * referenced variables) this run shares, for this run: still checked when that run's opening
 * checked it, found no warning to show, and ran this build. Opening it again would give the same
 * plan and the same (no) issues, so no process of this run opens it until a sign-in needs the plan.
 * Otherwise unchecked: the run's first worker (or the runner's sign-in ahead) opens and checks it
 * and shows its warnings.
 *
 * @example
 * writeRunDigest(cacheDir, key, carriedDigest(earlier, runId(env)));
 */
export function carriedDigest(earlier: RunDigest, run: string): RunDigest {
  const checked = earlier.checked && earlier.warnings === 0 && earlier.build === packageBuild();
  return { ...earlier, run, checked };
}

function digestPath(cacheDir: string, key: string): string {
  return join(cacheDir, `run-digest-${key.slice(0, 32)}`);
}

/**
 * The digest an earlier process of this run left for the config with this key, or undefined (none,
 * another run's, or unreadable: the caller then opens the config itself). With `run` undefined, the
 * digest any run left (the last one): only for what the key alone decides, such as the user names.
 *
 * @example
 * const digest = readRunDigest('.auth', quickConfigKey(file, env), runId(env));
 */
export function readRunDigest(cacheDir: string, key: string, run: string | undefined): RunDigest | undefined {
  let data: unknown;
  try {
    data = JSON.parse(readCacheFile(digestPath(cacheDir, key)) ?? '');
  } catch {
    return undefined;
  }
  if (!isDigest(data) || (run !== undefined && data.run !== run)) return undefined;
  return data;
}

/**
 * Leaves the digest for the other processes of the run: written atomically, mode 0600, in the
 * session cache directory. A failure to write only costs the others a config opening of their own.
 *
 * @example
 * writeRunDigest('.auth', key, digestOf(opened, runId(env), true));
 */
export function writeRunDigest(cacheDir: string, key: string, digest: RunDigest): void {
  try {
    ensureCacheDir(cacheDir);
    writeCacheFile(digestPath(cacheDir, key), JSON.stringify(digest));
  } catch {
    // Best effort: see above.
  }
}

function isDigest(data: unknown): data is RunDigest {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  const strings = (v: unknown) => Array.isArray(v) && v.length <= 100_000 && v.every((s) => typeof s === 'string');
  return typeof d.run === 'string' && typeof d.contentHash === 'string' && /^[0-9a-f]{64}$/.test(d.contentHash)
    && strings(d.users) && strings(d.userKeys) && (d.userKeys as string[]).length === (d.users as string[]).length
    && (d.userKeys as string[]).every((key) => /^[0-9a-f]{64}$/.test(key)) && strings(d.scope) && strings(d.mtlsUsers) && strings(d.staticUsers) && strings(d.configUsers) && strings(d.checkedUsers) && strings(d.noReauthUsers)
    && isReauthRules(d.reauthRules) && strings(d.origins) && typeof d.checked === 'boolean'
    && strings(d.httpUsers) && strings(d.browserUsers) && Number.isInteger(d.warnings) && (d.warnings as number) >= 0 && typeof d.build === 'string' && d.build.length <= 200
    && (d.access === undefined || (typeof d.access === 'object' && d.access !== null && strings((d.access as Record<string, unknown>).users) && strings((d.access as Record<string, unknown>).requests)))
    && (d.mail === undefined || isMailSource(d.mail));
}

function isMailSource(value: unknown): boolean {
  const m = value as Record<string, unknown> | null;
  if (typeof m !== 'object' || m === null) return false;
  const port = (n: unknown) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 65535;
  if (m.kind === 'smtp') return typeof m.host === 'string' && m.host.length <= 255 && port(m.port) && port(m.apiPort);
  return (m.kind === 'mailpit' || m.kind === 'maildev') && typeof m.url === 'string' && m.url.length <= 2048;
}

/** The plan's mail source as the digest keeps it: its fields alone (no config origin). */
function mailOf(plan: Plan): MailSource | undefined {
  const mail = (plan as { mail?: MailSource }).mail;
  if (!mail) return undefined;
  return mail.kind === 'smtp' ? { kind: 'smtp', host: mail.host, port: mail.port, apiPort: mail.apiPort } : { kind: mail.kind, url: mail.url };
}

function isReauthRules(value: unknown): boolean {
  const statuses = (v: unknown) => Array.isArray(v) && v.length <= 20 && v.every((n) => Number.isInteger(n));
  const globs = (v: unknown) => Array.isArray(v) && v.length <= 20 && v.every((s) => typeof s === 'string' && s.length <= 2048);
  return Array.isArray(value) && value.length <= 100_000 && value.every((rule: unknown) => {
    const r = rule as Record<string, unknown> | null;
    const patterns = (v: unknown) => v === undefined || (Array.isArray(v) && v.length <= 20 && v.every((p) => typeof p === 'string' && p.length <= 4096));
    return typeof r === 'object' && r !== null && typeof r.user === 'string' && statuses(r.onStatus) && globs(r.onRedirect) && patterns(r.onBody);
  });
}

/**
 * The digest of a config this process opened, for the other processes of run `run`; `checked`:
 * whether it was opened with `checkPlan` and `preflight`.
 *
 * @example
 * writeRunDigest(cacheDir, key, digestOf(openConfig(options), runId(env), true));
 */
export function digestOf({ loaded, plan, warnings, httpUsers, browserUsers }: Pick<OpenedConfig, 'loaded' | 'plan' | 'warnings' | 'httpUsers' | 'browserUsers'>, run: string, checked: boolean): RunDigest {
  return {
    run,
    contentHash: loaded.contentHash,
    users: plan.users.map((user) => user.name),
    userKeys: plan.users.map((user) => userCacheKey(plan, user)),
    scope: [...plan.scope],
    mtlsUsers: plan.users.filter((user) => user.mtls).map((user) => user.name),
    staticUsers: plan.users.filter((user) => user.procedure === undefined).map((user) => user.name),
    configUsers: plan.users.filter((user) => user.procedure !== undefined && needsConfig(plan, user)).map((user) => user.name),
    checkedUsers: plan.users.filter((user) => user.validation !== undefined).map((user) => user.name),
    noReauthUsers: plan.users.filter((user) => user.reauth === false).map((user) => user.name),
    reauthRules: plan.users.flatMap(({ name, reauth }) => (reauth ? [{ user: name, onStatus: [...reauth.onStatus], onRedirect: [...reauth.onRedirect], ...(reauth.onBody ? { onBody: [...reauth.onBody] } : {}) }] : [])),
    origins: planOrigins(plan),
    ...(plan.access ? { access: { users: [...plan.access.users], requests: plan.access.requests.map((request) => request.name) } } : {}),
    ...(mailOf(plan) ? { mail: mailOf(plan) } : {}),
    httpUsers: [...httpUsers],
    browserUsers: [...browserUsers],
    warnings: warnings.length,
    build: packageBuild(),
    checked,
  };
}

function needsConfig(plan: Plan, user: PlanUser): boolean {
  const { headers, cookies, query, body, basic } = user.credentials;
  if (user.passkey) return true;
  if (headers.length || cookies.length || query.length || body !== undefined || basic === 'requests') return true;
  const procedures = [user.procedure, user.refresh?.procedure].flatMap((name) => (name === undefined ? [] : [plan.procedures[name]]));
  return procedures.some((procedure) => procedure?.operations.some((op) => op.tech === 'digest'));
}
