/** `npm run seed`: fills an empty test-mode shop (idempotent; refused in production). */
import { EnvError, loadEnv } from '../config/env'
import { holdProcessOpen } from '../server/holdOpen'
import { createLogger } from '../server/logger'

holdProcessOpen()
try {
  const env = loadEnv()
  if (env.isProduction) {
    console.error('Seeding is for test mode only; it never runs in production.')
    process.exit(1)
  }
  const logger = createLogger(env.logLevel, 'seed')
  const { getPayload } = await import('payload')
  const { default: config } = await import('../payload.config')
  const { seed } = await import('./index')
  const { ensureDemoAdmin } = await import('../bootstrap/demoAdmin')
  const payload = await getPayload({ config })
  await seed({ payload, env, logger })
  const admin = await ensureDemoAdmin({ payload, env })
  logger.info({ email: admin.email, password: admin.password }, 'seeded; demo admin')
  process.exit(0)
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error)
  process.exit(1)
}
