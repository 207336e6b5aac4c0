import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigInvalidError, isMultiAuthError, MultiAuthError } from '../core/errors.js';
import { lazyModule } from '../core/lazy-module.js';
import { didYouMean } from '../core/suggest.js';
import type { Command } from './command.js';
import { commands } from './commands/index.js';
import { ExitCode, exitCodeOf, type CliIo } from './io.js';
import { jsonFailure } from './json-output.js';
import { commandUsage, HELP_OPTION, mainUsage } from './usage.js';
import { terminalColumns } from './wrap.js';

export type { CliIo } from './io.js';
export { ExitCode, quietOnClosedPipe } from './io.js';

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
  // Known before parsing: a script that asked for JSON gets JSON, even for a usage mistake.
  const json = wantsJson(argv);
  try {
    return await dispatch(argv, io, json);
  } catch (error) {
    if (isMultiAuthError(error)) return await failed(io, error, json);
    const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    io.stderr.write(`internal error (a bug in playwright-multiauth)\n${detail}\n`);
    return ExitCode.INTERNAL;
  }
}

/**
 * A failure as the user sees it: the text on stderr (config issues as compiler lines), and with
 * `--json` the same error as JSON on stdout.
 */
async function failed(io: CliIo, error: MultiAuthError, json: boolean): Promise<number> {
  if (error instanceof ConfigInvalidError) {
    // Loaded here, not at the start: it reaches the config layers, which `--help` does not need.
    const { renderIssues } = await lazyModule(() => import('./check-config.js'));
    io.stderr.write(renderIssues(error.issues, io.cwd, error.file));
  } else {
    io.stderr.write(`${error.render()}\n`);
  }
  if (json) io.stdout.write(jsonFailure(error));
  return exitCodeOf(error.code);
}

/** `--json` given to a command that has it (`check --json`, not `schema --json-ish` nor a USER named so). */
function wantsJson(argv: readonly string[]): boolean {
  const command = commands.find((c) => c.name === argv[0]);
  if (!command || !('json' in command.options)) return false;
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

async function dispatch(argv: string[], io: CliIo, json: boolean): Promise<number> {
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
    if (isParseArgsError(error)) return usageError(io, parseArgsMessage(error, command), command, json);
    throw error;
  }
  if (parsed.values.help) {
    io.stdout.write(commandUsage(command, terminalColumns(io.stdout)));
    return ExitCode.OK;
  }
  const count = parsed.positionals.length;
  if (count < command.positionals.min) return usageError(io, 'missing argument', command, json);
  if (count > command.positionals.max) return usageError(io, `unexpected argument "${parsed.positionals[command.positionals.max]}"`, command, json);
  // The commands that sign in start their own mail sink when none listens; one reader per run, closed after it.
  // The runtime is loaded only now: help and usage errors above need none of it.
  const { closeMailReaders, setMailSinkPolicy } = await lazyModule(() => import('../runtime/index.js'));
  setMailSinkPolicy({ startSinkIfNone: SIGNS_IN.has(command.name) });
  try {
    return await command.run({ values: parsed.values, positionals: parsed.positionals, io });
  } finally {
    await closeMailReaders();
    setMailSinkPolicy({ startSinkIfNone: false });
  }
}

/** The commands that sign users in (`draft` with `--check`): they may start an in-process mail sink. */
const SIGNS_IN: ReadonlySet<string> = new Set(['check', 'login', 'matrix', 'replay', 'draft']);

function help(io: CliIo, name: string | undefined): number {
  const command = name === undefined ? undefined : commands.find((c) => c.name === name);
  if (name !== undefined && !command) return usageError(io, `unknown command "${name}"`);
  const columns = terminalColumns(io.stdout);
  io.stdout.write(command ? commandUsage(command, columns) : mainUsage(commands, columns));
  return ExitCode.OK;
}

function usageError(io: CliIo, message: string, command?: Command, json = false): number {
  const columns = terminalColumns(io.stderr);
  io.stderr.write(`multiauth: ${message}\n\n${command ? commandUsage(command, columns) : mainUsage(commands, columns)}`);
  if (json && command) {
    io.stdout.write(jsonFailure(new MultiAuthError('CLI_USAGE', message, { hint: `multiauth ${command.name} --help shows the options.` })));
  }
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
    stdout: { write: (text: string) => io.stdout.write(clean(String(text))), ...terminalOf(io.stdout) },
    stderr: { write: (text: string) => io.stderr.write(clean(String(text))), ...terminalOf(io.stderr) },
  };
}

/** What the help's width is read from: a stream's `isTTY` and `columns`, when it has them. */
function terminalOf(stream: CliIo['stdout']): { isTTY?: boolean; columns?: number } {
  return { ...(stream.isTTY === undefined ? {} : { isTTY: stream.isTTY }), ...(stream.columns === undefined ? {} : { columns: stream.columns }) };
}
