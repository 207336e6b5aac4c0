import { ARG_DESCRIPTIONS, type ArgSpec } from '../../../../src/runtime/protocols/browser/args.js';
import { BROWSER_COMMANDS } from '../../../../src/runtime/protocols/browser/commands.js';

function cell(arg: ArgSpec | undefined): string {
  if (!arg) return '—';
  const text = ARG_DESCRIPTIONS[arg.kind].replace(/\|/g, '\\|');
  return arg.required ? text : `${text} (optional)`;
}

/**
 * The supported-commands table of docs/browser.md, rendered from BROWSER_COMMANDS (the doc must
 * hold exactly this between its `commands:start` and `commands:end` markers).
 *
 * @example
 * renderCommandTable(); // '| Command | Target | Value | What it does |\n|---|…'
 */
export function renderCommandTable(): string {
  const rows = Object.entries(BROWSER_COMMANDS)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, spec]) => `| \`${name}\` | ${cell(spec.args.target)} | ${cell(spec.args.value)} | ${spec.summary.replace(/\|/g, '\\|')} |`);
  return ['| Command | Target | Value | What it does |', '|---|---|---|---|', ...rows].join('\n');
}
