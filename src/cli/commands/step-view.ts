import type { ExchangeView, SignInEvent } from '../../runtime/index.js';

/**
 * One sign-in event as `multiauth login --verbose` prints it: a step with each request, its status
 * and the step's time, the names it extracted or stored; the injections; the session check. Names
 * and statuses only: values never appear, and every line still goes through `mask` (a URL's path
 * may hold a templated secret).
 *
 * @example
 * stepView({ kind: 'check', method: 'GET', url: 'https://a.test/me', status: 200, ms: 12, ok: true }, mask);
 * // 'check: GET https://a.test/me -> 200 (12 ms) ok\n'
 */
export function stepView(event: SignInEvent, mask: (text: string) => string): string {
  const lines: string[] = [];
  switch (event.kind) {
    case 'step':
      lines.push(`step ${event.step + 1} (${event.stepKind}) of procedure "${event.procedure}": ${millis(event.ms)}`);
      lines.push(...exchangeLines(event));
      if (event.extracted.length) lines.push(`  extracted: ${event.extracted.join(', ')}`);
      if (event.stored.length) lines.push(`  stored: ${event.stored.join(', ')}`);
      break;
    case 'step-failed':
      lines.push(`step ${event.step + 1} (${event.stepKind}) of procedure "${event.procedure}": failed after ${millis(event.ms)}`);
      lines.push(...exchangeLines(event));
      break;
    case 'injected':
      lines.push(`injected: ${event.injections.map(({ location, key }) => `${location} ${key}`).join(', ')}`);
      break;
    case 'check':
      lines.push(`check: ${event.method} ${event.url} -> ${event.status} (${millis(event.ms)}) ${event.ok ? 'ok' : 'failed'}`);
      break;
  }
  return mask(`${lines.join('\n')}\n`);
}

/** Each request of a step with its status, failed steps' included. */
function exchangeLines(event: { exchanges: ExchangeView[]; more: number }): string[] {
  const lines = event.exchanges.map((exchange) => `  ${exchange.method} ${exchange.url} -> ${exchange.status ?? 'no response'}`);
  if (event.more) lines.push(`  ... and ${event.more} more request${event.more === 1 ? '' : 's'}`);
  return lines;
}

function millis(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
