import type { Plan, PlanMail } from '../../compile/index.js';
import type { MailReader } from '../mail/reader.js';
import { lazyModule } from '../../core/lazy-module.js';

const mailRoom = () => lazyModule(() => import('../mail/index.js'));

/** Whether a reader may start an in-process sink when none listens (the CLI: yes; Playwright workers: no). */
let startSinkIfNone = false;
/** The process's readers, one per mail source (a process may open several configs: tests do). */
const readers = new Map<string, Promise<MailReader>>();

/**
 * Says whether this process may start its own mail sink when none is listening on the config's
 * port: the CLI commands that sign in (`check`, `login`, `matrix`, `draft --check`) say yes;
 * Playwright workers never do (the sink of the run is a `webServer` entry, `mailSink()`).
 *
 * @example
 * setMailSinkPolicy({ startSinkIfNone: true }); // multiauth login
 */
export function setMailSinkPolicy(options: { startSinkIfNone: boolean }): void {
  startSinkIfNone = options.startSinkIfNone;
}

/**
 * The process's mail reader for a plan, as a function that opens it on first call and gives the
 * same one afterwards: one reader per process and source, opened only when a procedure that waits
 * for mail runs. `undefined` when the plan has no `mail`. A reader that failed to open is not
 * kept: the next sign-in tries again.
 *
 * @example
 * await runProcedure(plan, user, procedure, { ...run, mail: mailReaderOf(plan) });
 */
export function mailReaderOf(plan: Plan): (() => Promise<MailReader>) | undefined {
  const source = plan.mail;
  if (!source) return undefined;
  return () => openedReader(source);
}

function openedReader(source: PlanMail): Promise<MailReader> {
  const key = JSON.stringify(source);
  let reader = readers.get(key);
  if (!reader) {
    // Loaded here, on first use: smtp-server and mailparser stay unloaded in a process that reads no mail.
    reader = mailRoom().then((mail) => mail.openMailReader(source, { startSinkIfNone }));
    readers.set(key, reader);
    reader.catch(() => readers.delete(key));
  }
  return reader;
}

/**
 * Closes every mail reader the process opened (and the sink one of them started): at the end of
 * a CLI command, of a worker. Never throws.
 *
 * @example
 * await closeMailReaders();
 */
export async function closeMailReaders(): Promise<void> {
  const open = [...readers.values()];
  readers.clear();
  await Promise.all(open.map((reader) => reader.then((r) => r.close()).catch(() => undefined)));
}
