import { loadEnv } from './env'

/**
 * The settings of this process, read once. Start-up (server/main.ts, the worker) calls
 * loadEnv itself first to report every problem before anything else is imported.
 */
export const env = loadEnv()
export const { mediaDir, filesDir, documentsDir } = env
