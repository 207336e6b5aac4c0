import { redactedUrl } from '../core/urls.js';
import { carriedBy, type Carried } from './carried.js';
import { header, type Exchange } from './exchanges.js';
import { isDistinctive, looksSecret } from './heuristics.js';
import { variableName } from './names.js';
import { OriginIndex, unrecordedFormOrigin, type Origin } from './origins.js';
import { succeeded, type SignIn } from './sign-in.js';

/** Steps of a drafted procedure at most: a recording that needs more is not one sign-in. */
const MAX_STEPS = 8;
/** Requests after the sign-in read for what they carry. */
const MAX_LATER = 200;

/** One request of the drafted sign-in, and what is read from its answer. */
export interface StepPlan {
  exchange: Exchange;
  extractions: Array<{ name: string; origin: Origin }>;
}

/** A header the signed-in requests carry, filled from a variable of the sign-in. */
export interface SessionHeader {
  name: string;
  prefix?: string;
  variable: string;
}

/** What the drafter concluded from a recording: the steps, the session, the check, and why. */
export interface Analysis {
  signIn: SignIn;
  /** In the recording's order; the sign-in is one of them. */
  steps: StepPlan[];
  /** Recorded value -> the variable that reads it back. */
  vars: Map<string, string>;
  sessionHeaders: SessionHeader[];
  /** Cookies the signed-in requests carry, set during the sign-in (its cookie jar keeps them). */
  sessionCookies: string[];
  /** Headers the signed-in requests carry that no answer gave: the user's own credentials (an API key). */
  staticHeaders: Array<{ name: string; value: string }>;
  /** A signed-in GET of the recording, for `validation`. */
  validation?: Exchange;
  /** Values the sign-in sent that look copied yet no recorded answer gave (computed by the page's script?). */
  untraced: Carried[];
  /** The exchanges recorded before the sign-in (pages a browser sign-in may start from). */
  before: Exchange[];
  /** The first signed-in request that carried each session header, for a browser step to wait for. */
  firstUse: Map<string, Exchange>;
  evidence: string[];
  todos: string[];
}

/**
 * `entry 3, POST http://127.0.0.1:4010/auth/token` (query values left out).
 *
 * @example
 * describeExchange(exchange); // 'entry 3, POST http://127.0.0.1:4010/auth/token'
 */
export function describeExchange(exchange: Exchange): string {
  return `entry ${exchange.index}, ${exchange.method} ${redactedUrl(exchange.url.href)}`;
}

/**
 * Follows what the sign-in needed and what the signed-in requests carried back to the answers
 * that first gave them: the earlier requests become steps before the sign-in (a CSRF token from
 * the login page), later ones steps after it (a token fetched with the session cookie), and each
 * value an extraction; the signed-in requests' headers become injections, their cookies the
 * sign-in's cookie jar. Redirect hops the client follows by itself are folded into the request
 * that started them.
 *
 * @example
 * const analysis = analyse(exchanges, signIn);
 */
export function analyse(exchanges: readonly Exchange[], signIn: SignIn): Analysis {
  const index = new OriginIndex(exchanges);
  const heads = redirectHeads(exchanges);
  const steps = new Map<number, StepPlan>();
  const vars = new Map<string, string>();
  const taken = new Set<string>();
  const evidence: string[] = [];
  const todos: string[] = [];
  const own = ownValues(signIn);
  const untraced: Carried[] = [];
  const firstUse = new Map<string, Exchange>();
  const s = signIn.exchange.index;

  const headOf = (exchange: Exchange): Exchange => heads.get(exchange.index) ?? exchange;

  const ensureValue = (carried: Carried, consumer: Exchange): string | undefined => {
    const known = vars.get(carried.value);
    if (known) return known;
    const origin = index.findOrigin(carried.value, consumer.index) ?? (carried.where === 'body' ? unrecordedFormOrigin(exchanges, carried.name, consumer) : undefined);
    if (!origin) return undefined;
    const step = ensureStep(headOf(origin.exchange));
    if (!step) return undefined;
    const name = variableName(origin.key, taken);
    step.extractions.push({ name, origin });
    vars.set(carried.value, name);
    evidence.push(`${describeExchange(consumer)} sends ${carried.where} ${carried.name} = ${origin.what} of the answer to ${describeExchange(origin.exchange)} -> {{${name}}}`);
    return name;
  };

  const ensureStep = (exchange: Exchange): StepPlan | undefined => {
    const found = steps.get(exchange.index);
    if (found) return found;
    if (steps.size >= MAX_STEPS) {
      todos.push(`more than ${MAX_STEPS} requests lead to the sign-in; ${describeExchange(exchange)} was left out`);
      return undefined;
    }
    const step: StepPlan = { exchange, extractions: [] };
    steps.set(exchange.index, step);
    for (const carried of carriedBy(exchange)) {
      if (own.has(carried.value)) continue;
      if (carried.where === 'cookie') {
        const origin = index.findOrigin(carried.value, exchange.index);
        if (origin?.location === 'cookie' && origin.key === carried.name) {
          if (!steps.has(headOf(origin.exchange).index)) {
            evidence.push(`${describeExchange(exchange)} sends cookie ${carried.name}, set by ${describeExchange(origin.exchange)}: that request comes first (the sign-in's cookie jar carries the cookie)`);
          }
          ensureStep(headOf(origin.exchange));
        } else if (exchange === signIn.exchange) {
          todos.push(`the sign-in sends cookie ${carried.name}, which no recorded answer set (set by a script, or before the recording?): add it to the request's cookies if the server needs it`);
        }
        continue;
      }
      if (isDistinctive(carried.value) && !ensureValue(carried, exchange) && exchange === signIn.exchange) untraced.push(carried);
    }
    return step;
  };

  ensureStep(signIn.exchange);
  const sessionHeaders: SessionHeader[] = [];
  const sessionCookies: string[] = [];
  const staticHeaders: Array<{ name: string; value: string }> = [];
  const later = exchanges.filter((e) => e.index > s && heads.get(e.index)?.index !== s && !steps.has(e.index)).slice(0, MAX_LATER);
  for (const exchange of later) {
    if (!succeeded(exchange) || heads.has(exchange.index)) continue;
    for (const carried of carriedBy(exchange)) {
      if (carried.where === 'header') laterHeader(carried, exchange);
      if (carried.where === 'cookie') laterCookie(carried, exchange);
    }
  }

  function laterHeader(carried: Carried, exchange: Exchange): void {
    if (sessionHeaders.some((h) => h.name.toLowerCase() === carried.name.toLowerCase())) return;
    if (staticHeaders.some((h) => h.name.toLowerCase() === carried.name.toLowerCase())) return;
    if (!isDistinctive(carried.value)) return;
    const origin = index.findOrigin(carried.value, exchange.index);
    if (origin && (origin.exchange.index >= s || steps.has(headOf(origin.exchange).index))) {
      const variable = ensureValue(carried, exchange);
      if (variable) {
        firstUse.set(carried.name, exchange);
        sessionHeaders.push({ name: carried.name, variable, ...(carried.prefix && { prefix: carried.prefix }) });
        evidence.push(`signed-in requests send header ${carried.name}${carried.prefix ? ` (${carried.prefix} ...)` : ''} -> injection of {{${variable}}}`);
      }
    } else if (origin) {
      todos.push(`${describeExchange(exchange)} sends header ${carried.name}, first given by ${describeExchange(origin.exchange)} before the sign-in: add that request as a step if the server needs the header`);
    } else if (/^(authorization|.*api[-_]?key.*|.*auth.*token.*|x-auth.*)$/i.test(carried.name) || looksSecret(carried.value)) {
      if (/^(authorization|.*api[-_]?key.*|x-auth.*)$/i.test(carried.name)) {
        staticHeaders.push({ name: carried.name, value: carried.prefix ? `${carried.prefix} ${carried.value}` : carried.value });
        evidence.push(`${describeExchange(exchange)} sends header ${carried.name}, which no recorded answer gave: the user's own credential -> a \${NAME} in its headers`);
      } else {
        todos.push(`${describeExchange(exchange)} sends header ${carried.name}, which no recorded answer gave (not carried over)`);
      }
    }
  }

  function laterCookie(carried: Carried, exchange: Exchange): void {
    if (sessionCookies.includes(carried.name)) return;
    const origin = index.findOrigin(carried.value, exchange.index);
    if (origin?.location !== 'cookie' || origin.key !== carried.name) return;
    const head = headOf(origin.exchange);
    if (head.index >= s && !steps.has(head.index)) ensureStep(head);
    const step = steps.get(head.index);
    if (!step) {
      todos.push(`signed-in requests send cookie ${carried.name}, set by ${describeExchange(origin.exchange)} before the sign-in: add that request as a step if the server needs it`);
      return;
    }
    sessionCookies.push(carried.name);
    if (!step.extractions.some((x) => x.origin.location === 'cookie' && x.origin.key === carried.name)) {
      step.extractions.push({ name: variableName(carried.name, taken), origin });
    }
    evidence.push(`signed-in requests send cookie ${carried.name}, set by ${describeExchange(origin.exchange)} -> kept by the sign-in's cookie jar (its extraction checks it was set)`);
  }

  const ordered = [...steps.values()].sort((a, b) => a.exchange.index - b.exchange.index);
  const lastStep = ordered.at(-1)!.exchange.index;
  const validation = pickValidation(exchanges, lastStep, heads, sessionHeaders, sessionCookies);
  if (validation) evidence.push(`session check: ${describeExchange(validation)} answered ${validation.status} with the session`);
  else todos.push('no signed-in GET after the sign-in answered 2xx: add a `validation` (a page or API only a signed-in user gets)');
  if (!sessionHeaders.length && !sessionCookies.length && !staticHeaders.length && signIn.kind !== 'basic') {
    todos.push('the signed-in requests carry nothing the sign-in gave (no header, no cookie): say where the session goes (injections)');
  }
  for (const carried of untraced) {
    todos.push(`the sign-in sends ${carried.where} ${carried.name}, a value no recorded answer gave (computed by the page's script?): if the draft's sign-in is refused, draft a browser sign-in (--webdriver)`);
  }
  return { signIn, steps: ordered, vars, sessionHeaders, sessionCookies, staticHeaders, ...(validation && { validation }), untraced, firstUse, before: exchanges.filter((e) => e.index < s), evidence, todos };
}

/** The user's own values (login, password, client secret): sent as themselves, never looked up. */
function ownValues(signIn: SignIn): Set<string> {
  const out = new Set<string>();
  if (signIn.kind === 'basic') out.add(signIn.username).add(signIn.password);
  else {
    if (signIn.username) out.add(signIn.username.value);
    if (signIn.password) out.add(signIn.password.value);
  }
  if (signIn.kind === 'oauth') {
    if (signIn.clientId) out.add(signIn.clientId);
    if (signIn.clientSecret) out.add(signIn.clientSecret);
  }
  if (signIn.kind === 'fields' && signIn.otp) out.add(signIn.otp.value);
  return out;
}

/**
 * Exchange index -> the request whose redirect it followed (the first of the chain): a `3xx`
 * whose `Location` is the next request to that URL.
 */
function redirectHeads(exchanges: readonly Exchange[]): Map<number, Exchange> {
  const heads = new Map<number, Exchange>();
  exchanges.forEach((exchange, i) => {
    if (exchange.status < 300 || exchange.status > 399) return;
    const location = header(exchange.responseHeaders, 'location');
    if (!location) return;
    let target: string;
    try {
      target = new URL(location, exchange.url).href;
    } catch {
      return;
    }
    const next = exchanges.slice(i + 1, i + 20).find((e) => e.url.href === target);
    if (next) heads.set(next.index, heads.get(exchange.index) ?? exchange);
  });
  return heads;
}

/** Scripts, styles, images and fonts: served to anyone, so they prove nothing about a session. */
function isAsset(exchange: Exchange): boolean {
  const mime = exchange.responseBody?.mime ?? header(exchange.responseHeaders, 'content-type') ?? '';
  return /\.(css|js|mjs|map|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|otf|eot)$/i.test(exchange.url.pathname) || /^(text\/css|image\/|font\/)|javascript/i.test(mime);
}

function pickValidation(
  exchanges: readonly Exchange[],
  after: number,
  heads: Map<number, Exchange>,
  sessionHeaders: readonly SessionHeader[],
  sessionCookies: readonly string[],
): Exchange | undefined {
  const candidates = exchanges.filter((e) => {
    if (e.index <= after || e.method !== 'GET' || e.status < 200 || e.status > 299 || isAsset(e)) return false;
    const names = new Set(e.requestHeaders.map((h) => h.name.toLowerCase()));
    const cookies = new Set(e.requestCookies.map((c) => c.name));
    return sessionHeaders.some((h) => names.has(h.name.toLowerCase())) || sessionCookies.some((c) => cookies.has(c)) || names.has('authorization');
  });
  // The check does not follow redirects, so a page that answered 200 is a signed-in answer too.
  // The page a sign-in redirected to comes last: it may answer anyone (a landing page).
  const pick = (list: Exchange[]) => list.find((e) => e.responseBody?.json !== undefined) ?? list[0];
  return pick(candidates.filter((e) => !heads.has(e.index))) ?? pick(candidates.filter((e) => heads.has(e.index)));
}
