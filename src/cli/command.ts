import type { CliIo } from './io.js';

/** One option of a command, for both parsing (node:util `parseArgs`) and the help text. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Placeholder of the value in help, e.g. `FILE`. */
  valueName?: string;
  description: string;
}

/** What a command receives: parsed options and positionals, and the process's I/O. */
export interface CommandInput {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  io: CliIo;
}

/**
 * A CLI command. Commands are registered with their usage in `commands/usage/` and one line in the
 * table of `commands/index.ts` (which loads the command's module when it runs);
 * `main` parses the command line against `options` and `positionals`, prints help and usage errors,
 * and turns errors into exit codes, so `run` only does the command's work.
 *
 * @example
 * export const usersCommand: Command = {
 *   name: 'users', summary: 'list the configured users, one per line', arguments: '[-c FILE]',
 *   options: { config: configOption }, positionals: { min: 0, max: 0 },
 *   async run({ values, io }) { ...; return ExitCode.OK; },
 * };
 */
export interface Command {
  name: string;
  /** One line, lower case, for the command list. */
  summary: string;
  /** The arguments part of the usage line, e.g. `USER [-c FILE] [--json]`. */
  arguments: string;
  /** Longer help text shown by `multiauth <command> --help`. */
  description?: string;
  options: Record<string, OptionSpec>;
  positionals: { min: number; max: number };
  run(input: CommandInput): Promise<number>;
}

/**
 * A command without its `run`: what help shows and what the command line is parsed against. Kept
 * apart (`commands/usage/`) so that `--help`, `--version` and usage errors load none of the
 * config, compile or runtime layers.
 */
export type CommandUsage = Omit<Command, 'run'>;

/** `-c, --config FILE`, shared by every command that reads a config. */
export const configOption: OptionSpec = {
  type: 'string',
  short: 'c',
  valueName: 'FILE',
  description: 'config file, or a folder holding one (default: multiauth.yaml, multiauth.yml or multiauth.json in the current directory)',
};
