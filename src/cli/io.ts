import type { ErrorCode } from '../core/errors.js';

/**
 * What the CLI talks to: injected, so tests run `main` in-process with captured output, and the
 * published `bin/multiauth.js` passes the real process streams.
 */
export interface CliIo {
  /** `isTTY` and `columns` as a terminal's stream has them: help is wrapped at its width. */
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  /** Directory relative paths (`-c FILE`) and the default config are resolved against. */
  cwd: string;
}

/**
 * Exit codes of every command (DESIGN.md section 6): scripts and CI rely on them.
 */
export const ExitCode = {
  OK: 0,
  /** Signing in failed (the server said no, or could not be reached). */
  AUTH_FAILED: 1,
  /** The config is invalid, or the command line is. */
  INVALID: 2,
  /** A bug in playwright-multiauth (EX_SOFTWARE of sysexits.h). */
  INTERNAL: 70,
} as const;

/** Error codes that mean "the config or the command line is wrong" (exit 2), not "sign-in failed" (exit 1). */
const INVALID_INPUT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'CONFIG_NOT_FOUND', 'CONFIG_LIMIT', 'OPENAPI_INVALID', 'CONFIG_SYNTAX', 'CONFIG_INVALID', 'CONFIG_ENV_MISSING', 'CLI_USAGE', 'USER_UNKNOWN',
  'TEMPLATE_UNKNOWN_VARIABLE', 'TEMPLATE_INVALID', 'TEMPLATE_FUNCTION_FAILED', 'CURL_PARSE', 'CURL_UNSUPPORTED_OPTION', 'CURL_FORBIDDEN', 'BROWSER_UNKNOWN_COMMAND',
  'HAR_INVALID', 'HAR_LIMIT', 'DRAFT_NO_SIGN_IN',
]);

/**
 * The exit code of an error this package raised: {@link ExitCode.INTERNAL} for `INTERNAL` (a bug,
 * as docs/cli.md says), {@link ExitCode.INVALID} when the config or the command line is wrong,
 * else {@link ExitCode.AUTH_FAILED}.
 *
 * @example
 * exitCodeOf(new MultiAuthError('USER_UNKNOWN', 'no user named "alcie"')); // 2
 */
export function exitCodeOf(code: ErrorCode): number {
  if (code === 'INTERNAL') return ExitCode.INTERNAL;
  return INVALID_INPUT.has(code) ? ExitCode.INVALID : ExitCode.AUTH_FAILED;
}

/**
 * Makes a closed pipe end the command quietly: `multiauth schema | head` closes stdout early, and
 * Node's default for the stream's `EPIPE` error is an uncaught exception with a stack trace.
 * Whatever else fails on a stream is said in one line on the other one, and the command exits 70.
 *
 * @example
 * quietOnClosedPipe(process.stdout, process.stderr);
 */
export function quietOnClosedPipe(...streams: NodeJS.WriteStream[]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? ExitCode.OK);
      // The other stream may still take a line; when it is the one that failed, nothing can.
      const other = stream === process.stderr ? process.stdout : process.stderr;
      try {
        other.write(`multiauth: cannot write its output (${error.code ?? 'write failed'})\n`);
      } catch {
        // Nothing can be said.
      }
      process.exit(ExitCode.INTERNAL);
    });
  }
}
