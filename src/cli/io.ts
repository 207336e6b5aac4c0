/**
 * What the CLI talks to: injected, so tests run `main` in-process with captured output, and the
 * published `bin/multiauth.js` passes the real process streams.
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
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
