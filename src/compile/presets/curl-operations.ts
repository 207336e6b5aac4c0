import { isMultiAuthError, type ConfigIssue } from '../../core/errors.js';
import type { ConfigPath } from '../../core/path.js';
import { parseCurl } from '../curl/index.js';
import type { PlanExtraction, PlanHttpOperation } from '../plan.js';
import { curlCommandSecrets } from '../secrets.js';

/** One curl command of a preset, where it sits in the config, and what to extract from its exchange. */
export interface CurlCommandSite {
  command: string;
  /** The command's config path (`presets[0].users[1].curl`): issues and runtime errors point there. */
  origin: ConfigPath;
  extractions: PlanExtraction[];
}

/** What a preset's curl commands compile to. */
export interface CompiledCurlCommands {
  /** One `http` operation per command that parses, in order. */
  operations: PlanHttpOperation[];
  /** Secrets written literally into the commands (see `Plan.secrets`). */
  secrets: string[];
  /** One error per command the simulator refuses, at the command's origin. */
  issues: ConfigIssue[];
}

/**
 * Parses each command once, here at compile time, with the sandboxed simulator (never a shell),
 * into an ordinary `http` operation whose request keeps its `{{var}}` templates, and whose `source`
 * keeps the command on one line for error messages (`compile` masks its secrets once the plan's are
 * known). A command the simulator refuses becomes an issue instead, and the others are still read,
 * so that `multiauth validate` lists every bad command of a config at once.
 *
 * @example
 * compileCurlCommands([{ command: "curl -d 'u={{user}}' https://x.test/login", origin: ['presets', 0, 'requests', 0, 'curl'], extractions: [] }]);
 * // { operations: [{ tech: 'http', request: { url: 'https://x.test/login', method: 'POST', body: 'u={{user}}', ... },
 * //   source: { kind: 'curl', command: "curl -d 'u={{user}}' https://x.test/login" }, ... }], secrets: [], issues: [] }
 */
export function compileCurlCommands(sites: readonly CurlCommandSite[]): CompiledCurlCommands {
  const out: CompiledCurlCommands = { operations: [], secrets: [], issues: [] };
  for (const { command, origin, extractions } of sites) {
    try {
      const request = parseCurl(command);
      out.operations.push({ tech: 'http', origin, request, extractions, source: { kind: 'curl', command: oneLine(command) } });
      out.secrets.push(...curlCommandSecrets(command));
    } catch (error) {
      if (!isMultiAuthError(error)) throw error;
      const issue: ConfigIssue = { severity: 'error', path: origin, message: `${error.message} [${error.code}]` };
      if (error.hint) issue.hint = error.hint;
      out.issues.push(issue);
    }
  }
  return out;
}

/** The command as one line: continuations joined, runs of blanks (line breaks included) made one space. */
function oneLine(command: string): string {
  return command.replace(/\\\r?\n/g, ' ').replace(/\s+/g, ' ').trim();
}
