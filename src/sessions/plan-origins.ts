import type { Plan } from '../compile/index.js';

/** Origins kept in a run digest at most: a config with more is a generated one, and the first suffice. */
const MAX_ORIGINS = 1000;

/**
 * The origins a plan's users sign in and are validated at: of every `http` and `digest` request of
 * their procedures (refresh ones too) and of their `validation`, in order, each once. A URL that
 * does not parse before its `{{var}}` are filled (`{{base}}/login`) says nothing and is left out;
 * browser steps are left out too (the identity provider's pages are not the app).
 *
 * @example
 * planOrigins(plan); // ['http://localhost:3000']
 */
export function planOrigins(plan: Plan): string[] {
  const found = new Set<string>();
  const add = (url: string | undefined) => {
    if (url === undefined || found.size >= MAX_ORIGINS || url.includes('{{')) return;
    const parsed = URL.parse(url);
    if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) found.add(parsed.origin);
  };
  for (const user of plan.users) {
    for (const name of [user.procedure, user.refresh?.procedure]) {
      if (name === undefined || !Object.hasOwn(plan.procedures, name)) continue;
      for (const operation of plan.procedures[name]?.operations ?? []) {
        if (operation.tech === 'http') add(operation.request.url);
        if (operation.tech === 'digest') add(operation.first.url);
      }
    }
    add(user.validation?.url);
  }
  return [...found];
}
