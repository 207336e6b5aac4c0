import type { Command, OptionSpec } from './command.js';
import { DEFAULT_COLUMNS, wrapText } from './wrap.js';

/** The `-h, --help` option every command accepts. */
export const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' };

/** Descriptions beside option flags need this much room; with less they go under the flags. */
const MIN_BESIDE = 30;

/**
 * The top-level help: commands, global options, exit codes, wrapped at `columns` (the terminal's
 * width, `terminalColumns`): each command's usage, then its summary under it.
 *
 * @example
 * io.stdout.write(mainUsage(Object.values(commands), terminalColumns(process.stdout)));
 */
export function mainUsage(commands: readonly Command[], columns = DEFAULT_COLUMNS): string {
  return [
    'Usage: multiauth <command> [options]',
    '',
    ...wrapText('Signs the test users of multiauth.yaml in, for Playwright Test and from the terminal.', columns, 0, 0),
    '',
    'Commands:',
    ...commands.flatMap((c) => [...wrapText(`${c.name} ${c.arguments}`, columns, 2, 4), ...wrapText(c.summary, columns, 6, 6)]),
    '',
    'Options:',
    ...options([['-h, --help', 'show help (multiauth <command> --help for a command)'], ['-V, --version', 'print the version']], columns),
    '',
    ...wrapText('Exit codes: 0 ok, 1 sign-in failed, 2 invalid config or command line, 70 internal error.', columns, 0, 0),
    '',
  ].join('\n');
}

/**
 * The help of one command: usage line, description, options, wrapped at `columns`. The
 * description's own line breaks stay; a line longer than the terminal is wrapped.
 *
 * @example
 * io.stdout.write(commandUsage(validateCommand, terminalColumns(process.stdout)));
 */
export function commandUsage(command: Command, columns = DEFAULT_COLUMNS): string {
  const flags = Object.entries({ ...command.options, help: HELP_OPTION }).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.valueName ? ` ${spec.valueName}` : ''}`;
    return [flag, spec.description] as const;
  });
  const description = command.description ?? `${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`;
  return [
    ...wrapText(`Usage: multiauth ${command.name} ${command.arguments}`, columns, 0, 4),
    '',
    ...reflow(description, columns),
    '',
    'Options:',
    ...options(flags, columns),
    '',
  ].join('\n');
}

/**
 * A command's description at `columns`: as written when every line fits, else each paragraph
 * wrapped again. A paragraph ends at a blank line, an indented line, or a line that ends a
 * sentence (`.` or `:`) before one that starts with no lower-case letter (`--update runs ...`).
 */
function reflow(description: string, columns: number): string[] {
  const lines = description.split('\n');
  if (lines.every((line) => line.length <= columns)) return lines;
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(...wrapText(paragraph.join(' '), columns, 0, 0));
    paragraph = [];
  };
  for (const line of lines) {
    const previous = paragraph.at(-1);
    if (line.trim() === '' || line.startsWith(' ')) {
      flush();
      out.push(...(line.length <= columns ? [line] : wrapText(line, columns, line.length - line.trimStart().length, line.length - line.trimStart().length)));
      continue;
    }
    if (previous !== undefined && /[.:]$/.test(previous) && !/^[a-z]/.test(line)) flush();
    paragraph.push(line);
  }
  flush();
  return out;
}

/** Flags and their descriptions, side by side when the terminal leaves room, else each under its flags. */
function options(rows: ReadonlyArray<readonly [string, string]>, columns: number): string[] {
  const width = Math.max(...rows.map(([flags]) => flags.length));
  const at = 2 + width + 2;
  if (columns - at < MIN_BESIDE) return rows.flatMap(([flags, text]) => [`  ${flags}`, ...wrapText(text, columns, 6, 6)]);
  return rows.flatMap(([flags, text]) => {
    const [first = '', ...rest] = wrapText(text, columns, at, at);
    return [`  ${flags.padEnd(width)}  ${first.trimStart()}`, ...rest];
  });
}
