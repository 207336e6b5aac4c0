// The layer rule of docs/architecture.md, checked by dependency-cruiser in `npm test`
// (scripts/check-layers.sh). Layers, first to last: core -> config -> compile -> runtime -> sessions
// -> draft -> playwright | cli. A layer imports only from layers before it, and a later layer enters an
// earlier one through its front door (its index.ts); core is a toolbox of small modules without one.
// Inside runtime/ the rooms are layered the same way: http -> mail -> session -> template -> protocols -> engine.

/** Layers in order; each may import only the ones before it. */
const LAYERS = ['core', 'config', 'compile', 'runtime', 'sessions', 'draft'];
/** The two top layers, which must not import each other. */
const TOPS = ['playwright', 'cli'];
/** Rooms of src/runtime, in order. */
const ROOMS = ['http', 'mail', 'session', 'template', 'protocols', 'engine'];
/** Layers whose index.ts is the only way in from another layer. */
const DOORS = ['config', 'compile', 'runtime', 'sessions', 'draft'];

const either = (names) => `(${names.join('|')})`;

const layerRules = LAYERS.map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `${layer}/ imports only from ${LAYERS.slice(0, i).join(', ') || 'nothing else in src'} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${either([...LAYERS.slice(i + 1), ...TOPS])}/|index\\.ts$)` },
}));

const topRules = TOPS.map((top) => ({
  name: `layer-${top}`,
  comment: `${top}/ does not import ${TOPS.filter((t) => t !== top)[0]}/ nor the package entry`,
  severity: 'error',
  from: { path: `^src/${top}/` },
  to: { path: `^src/(${either(TOPS.filter((t) => t !== top))}/|index\\.ts$)` },
}));

const roomRules = ROOMS.slice(0, -1).map((room, i) => ({
  name: `runtime-room-${room}`,
  comment: `runtime/${room}/ imports only from the rooms before it: ${ROOMS.slice(0, i).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: `^src/runtime/${room}/` },
  to: { path: `^src/runtime/(${either(ROOMS.slice(i + 1))}/|index\\.ts$)` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one concern with two names; break it (shared parts go down a layer).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...topRules,
    ...roomRules,
    {
      name: 'front-door',
      comment: 'Enter another layer through its index.ts, so each layer says what it offers in one place.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      // config/schema/ is the format's contract (docs/architecture.md): a second, side-effect-free door.
      to: { path: `^src/${either(DOORS)}/.+`, pathNot: [`^src/${either(DOORS)}/index\\.ts$`, '^src/config/schema/index\\.ts$', '^src/$1/'] },
    },
    {
      name: 'playwright-test-only-in-playwright',
      comment: '@playwright/test is the fixtures\' business; the engine drives browsers with playwright-core.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/playwright/', '^src/index\\.ts$'] },
      to: { path: '(^|/)node_modules/@playwright/test/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/|(^|/)node_modules/@playwright/test/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.build.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
