import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import { median, type BenchResult } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Mails measured per side, after a few unmeasured ones (connections, V8's compiler). */
const ROUNDS = 40;
const WARMUP = 5;
/** The peer's interval: Playwright's `expect.poll` starts at 100 ms, what a hand-written wait for a catcher uses. */
const POLL_MS = 100;

type MailIndex = typeof import('../src/runtime/mail/index.js');

/**
 * The time from a mail's arrival at the sink (its SMTP end-of-data, the sink's `arrivedAt`) to the
 * step's `waitFor` answering with it, as the median of 40 mails sent with nodemailer to a sink on
 * 127.0.0.1 and read through its API (pushed over one stream, then the quiet time for a newer mail).
 * Peer: the same mail found by reading the sink's API every 100 ms, as a wait written by hand
 * polls a catcher. Aim (issue 37): ours under 50 ms.
 *
 * @example
 * const { ours } = await benchMailArrival(); // e.g. 28 (ms)
 */
export async function benchMailArrival(): Promise<BenchResult> {
  const mail = (await import(pathToFileURL(join(root, 'dist', 'runtime', 'mail', 'index.js')).href)) as MailIndex;
  const sink = await mail.startMailSink({ host: '127.0.0.1', port: 0, apiPort: 0 });
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false, pool: true, maxConnections: 1 });
  const reader = await mail.openMailReader({ kind: 'smtp', host: '127.0.0.1', port: sink.port, apiPort: sink.apiPort });
  try {
    const send = (to: string, n: number) => transport.sendMail({ from: 'app@example.test', to, subject: `Your code ${n}`, text: `Your code is ${100000 + n}.` });
    const ours: number[] = [];
    for (let n = 0; n < WARMUP + ROUNDS; n++) {
      const to = `user${n}@example.test`;
      const after = await reader.cursor();
      const waiting = reader.waitFor({ to, after, timeoutMs: 10_000 });
      await send(to, n);
      const result = await waiting;
      const answeredAt = Date.now();
      if (result.kind !== 'found') throw new Error(`bench: mail ${n} not found`);
      if (n >= WARMUP) ours.push(answeredAt - result.message.arrivedAt);
    }
    const peer: number[] = [];
    for (let n = 0; n < ROUNDS; n++) {
      const before = sink.store.last;
      // A hand-written wait polls from before the mail is sent, at a phase the mail's arrival does not know.
      const polling = (async () => {
        await sleep(Math.random() * POLL_MS);
        for (;;) {
          const answer = (await (await fetch(`${sink.apiUrl}/cursor`)).json()) as { seq: number };
          if (answer.seq > before) return Date.now();
          await sleep(POLL_MS);
        }
      })();
      await send(`peer${n}@example.test`, n);
      const seenAt = await polling;
      const arrived = sink.store.after(before)[0]!.message.arrivedAt;
      peer.push(seenAt - arrived);
    }
    const oursMs = median(ours);
    const peerMs = median(peer);
    return { name: 'mail-arrival', ours: oursMs, peer: peerMs, unit: 'ms from arrival to answer (median)', ratio: oursMs / peerMs, aim: 50, aimOn: 'ours' };
  } finally {
    transport.close();
    await reader.close();
    await sink.close();
  }
}
