import { ConfigInvalidError, ErrorCode, MultiAuthError, type AuthContext, type ConfigIssue, type SourceLocation } from './errors.js';
import type { ConfigPath } from './path.js';

/** A {@link MultiAuthError} as plain JSON, to pass between processes or keep in a file. */
export interface ErrorData {
  code: ErrorCode;
  message: string;
  path?: ConfigPath;
  location?: SourceLocation;
  context?: AuthContext;
  hint?: string;
  details: string[];
  /** A `ConfigInvalidError`'s file and issues. */
  file?: string;
  issues?: ConfigIssue[];
}

/** Bounds what a file or another process can make an error carry. */
const MAX_ITEMS = 1000;

/**
 * The error as {@link ErrorData} (its `cause` is left out: it may be anything, and the text says
 * what matters).
 *
 * @example
 * JSON.stringify(errorData(error)); // '{"code":"AUTH_HTTP_STATUS","message":"…","details":[]}'
 */
export function errorData(error: MultiAuthError): ErrorData {
  const data: ErrorData = { code: error.code, message: error.message, details: [...error.details] };
  if (error.path !== undefined) data.path = [...error.path];
  if (error.location !== undefined) data.location = { ...error.location };
  if (error.context !== undefined) data.context = { ...error.context };
  if (error.hint !== undefined) data.hint = error.hint;
  if (error instanceof ConfigInvalidError) {
    data.file = error.file;
    data.issues = error.issues.map((issue) => ({ ...issue }));
  }
  return data;
}

/**
 * The error {@link errorData} described, with its class (`ConfigInvalidError` when it has issues)
 * and code; undefined when `data` is not such a description. `data` is untrusted (a file, another
 * process's output): only known fields of the right types are taken, lists are bounded.
 *
 * @example
 * const error = errorFromData(JSON.parse(text));
 * if (error) throw error;
 */
export function errorFromData(data: unknown): MultiAuthError | undefined {
  if (!isRecord(data) || typeof data.message !== 'string' || !isErrorCode(data.code)) return undefined;
  if (Array.isArray(data.issues)) {
    const issues = data.issues.slice(0, MAX_ITEMS).filter(isRecord).map(issueOf);
    return new ConfigInvalidError(typeof data.file === 'string' ? data.file : 'the config', issues, data.code);
  }
  return new MultiAuthError(data.code, data.message, {
    ...(isPath(data.path) ? { path: data.path } : {}),
    ...(isLocation(data.location) ? { location: data.location } : {}),
    ...(isRecord(data.context) ? { context: contextOf(data.context) } : {}),
    ...(typeof data.hint === 'string' ? { hint: data.hint } : {}),
    details: Array.isArray(data.details) ? data.details.slice(0, MAX_ITEMS).filter((d): d is string => typeof d === 'string') : [],
  });
}

function issueOf(raw: Record<string, unknown>): ConfigIssue {
  const issue: ConfigIssue = {
    severity: raw.severity === 'warning' ? 'warning' : 'error',
    path: isPath(raw.path) ? raw.path : [],
    message: typeof raw.message === 'string' ? raw.message : '',
  };
  if (isLocation(raw.location)) issue.location = raw.location;
  if (typeof raw.hint === 'string') issue.hint = raw.hint;
  return issue;
}

function contextOf(raw: Record<string, unknown>): AuthContext {
  const out: AuthContext = {};
  for (const key of ['user', 'procedure', 'stepKind', 'method', 'url'] as const) {
    if (typeof raw[key] === 'string') out[key] = raw[key];
  }
  for (const key of ['step', 'status'] as const) {
    if (typeof raw[key] === 'number') out[key] = raw[key];
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCode, value);
}

function isPath(value: unknown): value is ConfigPath {
  return Array.isArray(value) && value.length <= MAX_ITEMS && value.every((part) => typeof part === 'string' || typeof part === 'number');
}

function isLocation(value: unknown): value is SourceLocation {
  return isRecord(value) && typeof value.file === 'string' && typeof value.line === 'number' && typeof value.column === 'number';
}
