import { fromRoot } from '../../src/config/paths'

/** How tests start a TypeScript process, like `npm start` does (see scripts/start.mjs). */
export const TS_NODE_ARGS = [
  '--optimize-for-size',
  '--conditions=production',
  fromRoot('scripts/run-ts.mjs'),
]
