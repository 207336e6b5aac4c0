import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isMultiAuthError, type ErrorCode } from '../core/errors.js';
import { didYouMean } from '../config/index.js';
import type { Command } from './command.js';
import { commands } from './commands/index.js';
import { ExitCode, type CliIo } from './io.js';
import { commandUsage, HELP_OPTION, mainUsage } from './usage.js';

export type { CliIo } from './io.js';
export { ExitCode } from './io.js';

/** Error codes that mean "the config or the command line is wrong" (exit 2), not "sign-in failed" (exit 1). */
const INVALID_INPUT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'CONFIG_NOT_FOUND', 'CONFIG_LIMIT', 'CONFIG_SYNTAX', 'CONFIG_INVALID', 'CONFIG_ENV_MISSING', 'CLI_USAGE', 'USER_UNKNOWN',
  'TEMPLATE_UNKNOWN_VARIABLE', 'TEMPLATE_INVALID', 'TEMPLATE_FUNCTION_FAILED', 'CURL_PARSE', 'CURL_UNSUPPORTED_OPTION', 'CURL_FORBIDDEN', 'BROWSER_UNKNOWN_COMMAND',
  'OPENAPI_INVALID',
]);

/**
 * Runs the `multiauth` command line and returns the exit code (DESIGN.md section 6): 0 ok, 1
 * sign-in failed, 2 invalid config or command line, 70 internal error. Errors this package raises
 * on purpose are printed without a stack trace; anything else is a bug and says so, with its stack.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr,
 *   env: process.env, cwd: process.cwd() });
 */
export async function main(argv: string[], raw: CliIo): Promise<number> {
  const io = printableOutput(raw);
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (isMultiAuthError(error)) {
      io.stderr.write(`${error.render()}\n`);
      return INVALID_INPUT.has(error.code) ? ExitCode.INVALID : ExitCode.AUTH_FAILED;
    }
    const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    io.stderr.write(`internal error (a bug in playwright-multiauth)\n${detail}\n`);
    return ExitCode.INTERNAL;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) return usageError(io, 'no command given');
  if (first === '-h' || first === '--help') return help(io, rest[0]);
  if (first === 'help') return help(io, rest[0]);
  if (first === '-V' || first === '--version') {
    io.stdout.write(`${packageVersion()}\n`);
    return ExitCode.OK;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) {
    const what = first.startsWith('-') ? `unknown option "${first}"` : `unknown command "${first}"`;
    return usageError(io, `${what}${didYouMean(first, commands.map((c) => c.name))}`);
  }

  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: Object.fromEntries(
        Object.entries({ ...command.options, help: HELP_OPTION }).map(([name, spec]) => [
          name,
          spec.short ? { type: spec.type, short: spec.short } : { type: spec.type },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    if (isParseArgsError(error)) return usageError(io, parseArgsMessage(error, command), command);
    throw error;
  }
  if (parsed.values.help) {
    io.stdout.write(commandUsage(command));
    return ExitCode.OK;
  }
  const count = parsed.positionals.length;
  if (count < command.positionals.min) return usageError(io, 'missing argument', command);
  if (count > command.positionals.max) return usageError(io, `unexpected argument "${parsed.positionals[command.positionals.max]}"`, command);
  return command.run({ values: parsed.values, positionals: parsed.positionals, io });
}

function help(io: CliIo, name: string | undefined): number {
  const command = name === undefined ? undefined : commands.find((c) => c.name === name);
  if (name !== undefined && !command) return usageError(io, `unknown command "${name}"`);
  io.stdout.write(command ? commandUsage(command) : mainUsage(commands));
  return ExitCode.OK;
}

function usageError(io: CliIo, message: string, command?: Command): number {
  io.stderr.write(`multiauth: ${message}\n\n${command ? commandUsage(command) : mainUsage(commands)}`);
  return ExitCode.INVALID;
}

/** node:util's messages are written for programmers; say the same in a user's words. */
function parseArgsMessage(error: Error, command: Command): string {
  const unknown = /Unknown option '([^']+)'/.exec(error.message)?.[1];
  if (unknown !== undefined) {
    const known = Object.keys({ ...command.options, help: HELP_OPTION }).map((name) => `--${name}`);
    return `unknown option "${unknown}" for "${command.name}"${didYouMean(unknown, known)}`;
  }
  return error.message.replace(/^Option '([^']+)' argument missing$/, 'option $1 needs a value').split('. ')[0] ?? error.message;
}

function isParseArgsError(error: unknown): error is Error {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

function packageVersion(): string {
  // Same relative path from src/cli (tsx) and dist/cli (published).
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

/**
 * Control characters (terminal escape sequences among them) in what the CLI prints come from
 * configs and servers: a user name could clear the screen or fake a line. They are shown as
 * `\\xNN` / `\\u{NNNN}`; newlines and tabs stay. JSON output has none (JSON escapes them).
 */
function printableOutput(io: CliIo): CliIo {
  const clean = (text: string): string =>
    text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
      const code = c.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
    });
  return {
    ...io,
    stdout: { write: (text: string) => io.stdout.write(clean(String(text))) },
    stderr: { write: (text: string) => io.stderr.write(clean(String(text))) },
  };
}
