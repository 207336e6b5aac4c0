import type { Command, OptionSpec } from './command.js';

/** The `-h, --help` option every command accepts. */
export const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' };

/**
 * The top-level help: commands, global options, exit codes.
 *
 * @example
 * io.stdout.write(mainUsage(Object.values(commands)));
 */
export function mainUsage(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => `${c.name} ${c.arguments}`.length));
  return [
    'Usage: multiauth <command> [options]',
    '',
    'Signs the test users of multiauth.yaml in, for Playwright Test and from the terminal.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${`${c.name} ${c.arguments}`.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     show help (multiauth <command> --help for a command)',
    '  -V, --version  print the version',
    '',
    'Exit codes: 0 ok, 1 sign-in failed, 2 invalid config or command line, 70 internal error.',
    '',
  ].join('\n');
}

/**
 * The help of one command: usage line, description, options.
 *
 * @example
 * io.stdout.write(commandUsage(validateCommand));
 */
export function commandUsage(command: Command): string {
  const options = Object.entries({ ...command.options, help: HELP_OPTION }).map(([name, spec]) => {
    const flags = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.valueName ? ` ${spec.valueName}` : ''}`;
    return [flags, spec.description] as const;
  });
  const width = Math.max(...options.map(([flags]) => flags.length));
  return [
    `Usage: multiauth ${command.name} ${command.arguments}`.trimEnd(),
    '',
    command.description ?? `${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'Options:',
    ...options.map(([flags, description]) => `  ${flags.padEnd(width)}  ${description}`),
    '',
  ].join('\n');
}
