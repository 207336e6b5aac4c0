// Prints the run id this process sees (`runId(process.env)`), as a `multiauth` command or a worker would.
// Plain JavaScript on the built dist/ (what a command runs): through tsx, compiling src/ was most of each child's CPU.
import { runId } from '../../../dist/sessions/run-id.cjs';

process.stdout.write(`${JSON.stringify({ pid: process.pid, run: runId(process.env) })}\n`);
