/**
 * Which origins a scope pattern reaches. Browser storage belongs to an origin, not to a path, so
 * static `local_storage` / `session_storage` credentials go to every origin that has at least one
 * URL inside the scope: `http://app.test/api/**` reaches `http://app.test` and no other origin,
 * `https://*.app.test/**` the subdomains of `app.test`, `**\/api/**` every origin. The origins are
 * known only in the page, so a pattern is compiled here into a small automaton (no regular
 * expression: matching is linear, whatever the pattern) that the page's init script runs.
 */

/**
 * One state of a compiled glob: `[0, c]` reads the character `c`; `[1]` is `*` (any run of
 * characters but `/`); `[2]` is `**` (any run of characters); `[3]` reads any one character; `[4,
 * targets]` goes, reading nothing, to each of `targets`; `[5, target]` goes to `target`. Every
 * other state goes on to the next; the pattern matches when a run ends past the last state.
 */
export type GlobState = [0, string] | [1] | [2] | [3] | [4, number[]] | [5, number];

/** A compiled glob: its states, and for each whether the end can still be reached from it. */
export interface OriginGlob {
  states: GlobState[];
  live: boolean[];
}

/**
 * Compiles a URL glob as Playwright's `context.route` reads it (`*`, `**`, `{a,b}`, `\` escapes;
 * `**\/` after `/` may match nothing) into an automaton for {@link reachesOrigin}.
 *
 * @returns undefined for a glob Playwright refuses too (a nested or unclosed `{`): it reaches no origin.
 * @example
 * const glob = compileOriginGlob('http://127.0.0.1:4010/api/**');
 * reachesOrigin(glob!, 'http://127.0.0.1:4010'); // true
 * reachesOrigin(glob!, 'http://127.0.0.1:4011'); // false
 */
export function compileOriginGlob(glob: string): OriginGlob | undefined {
  const states: GlobState[] = [];
  let group: { split: number; starts: number[]; jumps: number[] } | undefined;
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === '\\' && i + 1 < glob.length) {
      i += 1;
      states.push([0, glob[i] as string]);
    } else if (char === '*') {
      const before = glob[i - 1];
      let stars = 1;
      while (glob[i + 1] === '*') {
        stars += 1;
        i += 1;
      }
      if (stars === 1) states.push([1]);
      else if (glob[i + 1] === '/') {
        i += 1;
        if (before === '/') {
          // Playwright's `((.+/)|)`: one character or more then `/`, or nothing.
          const split = states.push([4, []]) - 1;
          states.push([3], [2], [0, '/']);
          (states[split] as [4, number[]])[1] = [split + 1, states.length];
        } else {
          states.push([2], [0, '/']);
        }
      } else {
        states.push([2]);
      }
    } else if (char === '{') {
      if (group) return undefined;
      const split = states.push([4, []]) - 1;
      group = { split, starts: [split + 1], jumps: [] };
    } else if (char === ',' && group) {
      group.jumps.push(states.push([5, -1]) - 1);
      group.starts.push(states.length);
    } else if (char === '}') {
      if (!group) return undefined;
      group.jumps.push(states.push([5, -1]) - 1);
      for (const jump of group.jumps) states[jump] = [5, states.length];
      states[group.split] = [4, group.starts];
      group = undefined;
    } else {
      states.push([0, char]);
    }
  }
  if (group) return undefined;
  return { states, live: liveStates(states) };
}

/** For each state, whether some text leads from it to the end (a jump backwards never happens). */
function liveStates(states: GlobState[]): boolean[] {
  const live = states.map(() => false);
  const at = (index: number): boolean => index >= states.length || live[index] === true;
  // Every edge goes forward, so one pass from the end settles each state.
  for (let i = states.length - 1; i >= 0; i -= 1) {
    const state = states[i] as GlobState;
    if (state[0] === 4) live[i] = state[1].some(at);
    else if (state[0] === 5) live[i] = at(state[1]);
    else live[i] = at(i + 1);
  }
  return live;
}

/**
 * Whether some URL of `origin` (`http://127.0.0.1:4010`: scheme, host and port, as
 * `location.origin` says it) matches the glob: the origin, then `/`, then anything the glob allows.
 * Self-contained (no imports, no closures): the page runs its source as it is.
 *
 * @example
 * reachesOrigin(compileOriginGlob('https://*.app.test/**')!, 'https://eu.app.test'); // true
 */
export function reachesOrigin(glob: OriginGlob, origin: string): boolean {
  const { states, live } = glob;
  const end = states.length;
  const close = (from: number[]): number[] => {
    const seen = new Set<number>();
    const stack = [...from];
    while (stack.length) {
      const index = stack.pop() as number;
      if (seen.has(index)) continue;
      seen.add(index);
      const state = states[index];
      if (!state) continue;
      if (state[0] === 4) for (const target of state[1]) stack.push(target);
      else if (state[0] === 5) stack.push(state[1]);
      else if (state[0] === 1 || state[0] === 2) stack.push(index + 1);
    }
    return [...seen];
  };
  const step = (current: number[], char: string): number[] => {
    const next: number[] = [];
    for (const index of current) {
      const state = states[index];
      if (!state) continue;
      if (state[0] === 0 && state[1] === char) next.push(index + 1);
      else if ((state[0] === 1 && char !== '/') || state[0] === 2) next.push(index);
      else if (state[0] === 3) next.push(index + 1);
    }
    return close(next);
  };
  let current = close([0]);
  for (const char of `${origin}/`) {
    current = step(current, char);
    if (!current.length) return false;
  }
  return current.some((index) => index >= end || live[index] === true);
}
