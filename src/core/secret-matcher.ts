/**
 * Characters of a long secret that are searched for: its last ones, then the whole secret is
 * compared where they are found. One regular expression of whole secrets is refused by V8 once a
 * secret passes about 32,000 characters ("Regular expression too large"); pieces of a bounded
 * length never are. The end, not the start: tokens of one server share their first characters
 * (every JWT of an issuer starts with the same header), and their ends are the random part.
 */
const ANCHOR_LENGTH = 32;

/**
 * Alternatives in one regular expression. More secrets make more expressions, each a pass over the
 * text: V8 compiles a literal alternation into a fast automaton, faster here than a multi-pattern
 * search written in JavaScript (measured: 6 MB with 4,000 anchors in 0.13 s, against 0.7 s for
 * the npm Aho-Corasick packages, which also took seconds to build for 50,000 anchors).
 */
const MAX_ALTERNATIVES = 4_000;

/** Spans kept before they are sorted and merged, which bounds their memory. */
const MAX_PENDING_SPANS = 1 << 16;

/**
 * Characters compared to confirm long secrets, per character of the text, plus an allowance. A
 * text made to hold a long secret's end at every position would otherwise cost the text's length
 * times the secret's: past this, {@link SecretMatcher.spans} gives up.
 */
const CONFIRM_PER_CHARACTER = 16;
const CONFIRM_ALLOWANCE = 1 << 22;

/** Thrown when confirming long secrets would cost more than {@link CONFIRM_PER_CHARACTER} allows. */
export class MatchBudgetExceeded extends Error {
  constructor() {
    super('masking this text would take too much work');
    this.name = 'MatchBudgetExceeded';
  }
}

/** A set of patterns searched together, and how a match of one becomes a span of the text. */
interface Pass {
  readonly pattern: RegExp;
  /** Long secrets by the anchor they end with, longest first; absent for a pass of whole secrets. */
  readonly byAnchor?: Map<string, string[]>;
}

/**
 * Finds every occurrence of any of many secrets in a text, with no limit on their number or
 * length: short secrets are searched whole, long ones by their last {@link ANCHOR_LENGTH}
 * characters and then compared. Overlapping occurrences are all found, so two secrets that overlap
 * are masked together.
 *
 * @example
 * new SecretMatcher(['hunter2']).spans('password=hunter2'); // [[9, 16]]
 */
export class SecretMatcher {
  /**
   * The secrets in batches, each searched by its own passes. A batch at least as large as the
   * last one absorbs it ({@link SecretMatcher.add}), like the digits of a binary counter.
   */
  private readonly generations: Array<{ secrets: string[]; passes: Pass[] }> = [];

  constructor(secrets: Iterable<string>) {
    this.add(secrets);
  }

  /**
   * Searches for `secrets` too. V8 compiles a regular expression when it first runs, at a cost that
   * grows with its alternatives: a run that learns secrets one sign-in at a time and prints between
   * them (`multiauth check`, a line per user) would compile every secret again for every line,
   * quadratic in the users. Merged as a binary counter merges, each secret is compiled about
   * log2(n) times, and a text is scanned by about log2(n) passes. The caller adds each secret once.
   *
   * @example
   * const matcher = new SecretMatcher(['hunter2']);
   * matcher.add(['s3cret-token']);
   * matcher.spans('hunter2 s3cret-token'); // [[0, 7], [8, 20]]
   */
  add(secrets: Iterable<string>): void {
    let batch = [...secrets];
    if (batch.length === 0) return;
    for (let last = this.generations.at(-1); last && last.secrets.length <= batch.length; last = this.generations.at(-1)) {
      this.generations.pop();
      batch = last.secrets.concat(batch);
    }
    this.generations.push({ secrets: batch, passes: passesFor(batch) });
  }

  /**
   * The spans `[start, end)` of `text` that hold a secret, sorted, overlapping ones merged.
   *
   * @throws {MatchBudgetExceeded} when the text makes confirming long secrets too costly.
   */
  spans(text: string): Array<[number, number]> {
    let budget = CONFIRM_PER_CHARACTER * text.length + CONFIRM_ALLOWANCE;
    let found: Array<[number, number]> = [];
    for (const { pattern, byAnchor } of this.generations.flatMap((generation) => generation.passes)) {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        // From the next character, not the match's end: an occurrence that overlaps this one counts too.
        pattern.lastIndex = match.index + 1;
        const end = match.index + match[0].length;
        if (!byAnchor) {
          found.push([match.index, end]);
        } else {
          for (const secret of byAnchor.get(match[0]) ?? []) {
            const start = end - secret.length;
            // The start too, cheaply, before the whole: only a text that holds both ends costs a comparison.
            if (start < 0 || !text.startsWith(secret.slice(0, ANCHOR_LENGTH), start)) continue;
            budget -= secret.length;
            if (budget < 0) throw new MatchBudgetExceeded();
            if (!text.startsWith(secret, start)) continue;
            // Longest first: a shorter secret with the same end lies inside this span.
            found.push([start, end]);
            break;
          }
        }
        if (found.length > MAX_PENDING_SPANS) found = merged(found);
      }
    }
    return merged(found);
  }
}

/** The passes that find `secrets`: short ones whole, long ones by their anchor. */
function passesFor(secrets: string[]): Pass[] {
  const whole: string[] = [];
  const byAnchor = new Map<string, string[]>();
  for (const secret of secrets) {
    if (secret.length <= ANCHOR_LENGTH) {
      whole.push(secret);
      continue;
    }
    const anchor = secret.slice(-ANCHOR_LENGTH);
    const group = byAnchor.get(anchor);
    if (group) group.push(secret);
    else byAnchor.set(anchor, [secret]);
  }
  for (const group of byAnchor.values()) group.sort((a, b) => b.length - a.length);
  // Longest first: at one position the longest secret that starts there wins, and covers the rest.
  whole.sort((a, b) => b.length - a.length);
  const passes: Pass[] = [];
  for (const pattern of alternations(whole)) passes.push({ pattern });
  for (const pattern of alternations([...byAnchor.keys()])) passes.push({ pattern, byAnchor });
  return passes;
}

/** Literal alternations of `texts`, in groups V8 compiles; a group it refuses is split. */
function alternations(texts: string[]): RegExp[] {
  const out: RegExp[] = [];
  const groups: string[][] = [];
  for (let i = 0; i < texts.length; i += MAX_ALTERNATIVES) groups.push(texts.slice(i, i + MAX_ALTERNATIVES));
  while (groups.length) {
    const group = groups.pop()!;
    try {
      out.push(new RegExp(group.map(escapeRegExp).join('|'), 'g'));
    } catch (error) {
      // A single alternative of at most ANCHOR_LENGTH characters always compiles.
      if (group.length < 2) throw error;
      groups.push(group.slice(0, group.length >> 1), group.slice(group.length >> 1));
    }
  }
  return out;
}

function merged(spans: Array<[number, number]>): Array<[number, number]> {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Array<[number, number]> = [spans[0]!];
  for (let i = 1; i < spans.length; i++) {
    const span = spans[i]!;
    const last = out[out.length - 1]!;
    if (span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push(span);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
