import { fromRoot } from '../../src/config/paths'

/** How tests start a TypeScript process: like `npm start` (see scripts/preload.mjs). */
export const TSX_NODE_ARGS = ['--import', fromRoot('scripts/preload.mjs'), '--import', 'tsx']
