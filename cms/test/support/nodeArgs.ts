import { fromRoot } from '../../src/config/paths'

/** How tests start a TypeScript process, like `npm start` does (see scripts/run-ts.mjs). */
export const TS_NODE_ARGS = ['--conditions=production', fromRoot('scripts/run-ts.mjs')]
