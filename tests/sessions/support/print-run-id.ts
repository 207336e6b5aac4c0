// Prints the run id this process sees (`runId(process.env)`), as a `multiauth` command or a worker would.
import { runId } from '../../../src/sessions/run-id.js';

process.stdout.write(`${JSON.stringify({ pid: process.pid, run: runId(process.env) })}\n`);
