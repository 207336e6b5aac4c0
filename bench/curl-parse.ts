import { pathToFileURL } from 'node:url';
import { parse as curlconverterParse } from 'curlconverter/dist/src/parse.js';
import { parseCurl } from '../src/compile/curl/index.js';
import { goldenCases } from '../tests/compile/curl/golden.js';

/** One benchmark figure: operations per second of ours and of the peer, and their ratio. */
export interface CurlParseFigure {
  name: string;
  ours: number;
  peer: number;
  unit: 'ops/s';
  ratio: number;
  aim: 5;
}

const RUNS = 10_000;
/** Rounds, alternating ours and the peer; the best round of each counts (the machine is shared). */
const ROUNDS = 5;

function opsPerSecond(commands: string[], parse: (command: string) => unknown): number {
  for (let i = 0; i < 500; i += 1) parse(commands[i % commands.length] as string);
  const started = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i += 1) parse(commands[i % commands.length] as string);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return RUNS / seconds;
}

/**
 * Parses 10,000 commands cycled from the golden corpus with `parseCurl` and with curlconverter's
 * parser (tree-sitter-bash, native binding) in one run, five rounds each, alternating, best round
 * kept. The Windows cmd commands are left out: curlconverter reads bash only.
 *
 * @example
 * const figure = await benchCurlParse(); // { name: 'curl-parse', ours: 61000, peer: 4200, unit: 'ops/s', ratio: 14.5, aim: 5 }
 */
export async function benchCurlParse(): Promise<CurlParseFigure> {
  const commands = goldenCases().map((c) => c.command).filter((command) => !command.includes('^'));
  let ours = 0;
  let peer = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    ours = Math.max(ours, opsPerSecond(commands, parseCurl));
    peer = Math.max(peer, opsPerSecond(commands, (command) => curlconverterParse(command, undefined, [])));
  }
  return { name: 'curl-parse', ours: Math.round(ours), peer: Math.round(peer), unit: 'ops/s', ratio: Number((ours / peer).toFixed(2)), aim: 5 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figure = await benchCurlParse();
  console.log(`parseCurl:     ${figure.ours} ops/s`);
  console.log(`curlconverter: ${figure.peer} ops/s`);
  console.log(`ratio:         ${figure.ratio}x (aim >= ${figure.aim}x)`);
}
