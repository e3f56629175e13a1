/**
 * The worker container's healthcheck (`node dist/worker-healthcheck.mjs`): exits 0 when this
 * host's worker finished a pass, or checked the lease as a standby, in the last 90 seconds.
 */
import { loadEnv } from '@shop/cms/process'

import { heartbeatProblem } from './heartbeat'

const problem = heartbeatProblem(loadEnv().dataDir)
if (problem) {
  console.error(`payment worker unhealthy: ${problem}`)
  process.exit(1)
}
