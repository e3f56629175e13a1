// How Node starts each of the shop's processes, in one place: `npm start` (scripts/start.mjs),
// the bench, the production test and the tests' child processes read it; the Dockerfile (web),
// docker-compose.yml (worker) and the workspaces' `start` scripts spell it out, and
// production/compose.test.ts checks compose's worker against it.

/**
 * The web process: V8 keeps its heap near what is live (decision 006), for a few percent of
 * throughput.
 */
export const WEB_NODE_ARGS = ['--optimize-for-size', '--conditions=production']

/**
 * The payment worker: a young generation of up to 32 MB a semi-space, and the old one held to
 * 256 MB (decision 024). Under a rush it allocates fast (Payload's reads and writes of each
 * order), and with `--optimize-for-size` a quarter of its time went to collecting: a 400-order
 * rush reached PAID at 58-69 orders/s and its e-mails in 15-18 s, with these 104-111/s and
 * 11.6 s. Without the old generation's bound its memory doubled under five minutes of load.
 */
export const WORKER_NODE_ARGS = [
  '--conditions=production',
  '--max-semi-space-size=32',
  '--max-old-space-size=256',
]

/** The arguments for a process by its entry's name (`web`, `worker`, or another of the bundle). */
export const nodeArgsOf = (name) => (name === 'worker' ? WORKER_NODE_ARGS : WEB_NODE_ARGS)
