/**
 * What another process of the shop (the payment worker, the chain simulator) needs to start
 * like the web process does: the settings, the logger, and the keep-alive.
 */
export { EnvError, loadEnv, TEST_XPUB } from './config/env'
export { announceReady, runProcess, settingsOrExit } from './config/startUp'
export type { Env } from './config/env'
export { fromRoot, repoRoot } from './config/paths'
export { createLogger, prettyLogs } from './server/logger'
export type { Logger } from './server/logger'
export { holdProcessOpen } from './server/holdOpen'
