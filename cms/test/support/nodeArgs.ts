import { WEB_NODE_ARGS, WORKER_NODE_ARGS } from '../../../scripts/node-args.mjs'
import { fromRoot } from '../../src/config/paths'

/** How tests start a TypeScript process, like `npm start` does (see scripts/start.mjs). */
export const TS_NODE_ARGS = [...WEB_NODE_ARGS, fromRoot('scripts/run-ts.mjs')]

/** The same for the payment worker, whose heap is sized for speed (scripts/node-args.mjs). */
export const WORKER_TS_NODE_ARGS = [...WORKER_NODE_ARGS, fromRoot('scripts/run-ts.mjs')]
