/**
 * Starts the web process once its settings are valid (see main.ts): Payload, the seed in
 * test mode, and the express app on one port, with graceful shutdown. Next (Payload's admin
 * under /cms) is loaded by the first request for /cms (lazyNext.ts).
 */
import { getPayload } from 'payload'

import { ensureDemoAdmin } from '../bootstrap/demoAdmin'
import type { Env } from '../config/env'
import { fromRoot } from '../config/paths'
import { prepareNextOrderAddresses } from '../operations/orders/prepareAddresses'
import config from '../payload.config'
import { createApp } from './app'
import { closeServer, createHttpServer } from './httpServer'
import { lazyNext } from './lazyNext'
import { createLogger, prettyLogs } from './logger'

export async function startWebProcess({
  env,
  dev,
  onListening,
}: {
  env: Env
  dev: boolean
  onListening: () => void
}): Promise<void> {
  const logger = createLogger(env.logLevel, 'web', { pretty: prettyLogs(env) })
  const started = Date.now()

  const payload = await getPayload({ config })
  let demoAdmin
  if (!env.isProduction && env.seed === 'auto') {
    // Test mode only: the seed and what it draws its files with (pdf-lib) stay out of
    // production's start.
    const { seed } = await import('../seed')
    await seed({ payload, env, logger })
    demoAdmin = await ensureDemoAdmin({ payload, env })
  }

  const nextApp = lazyNext({ dev, dir: fromRoot('cms'), logger })
  const app = createApp({ payload, env, logger, dev, nextHandler: nextApp.handler })
  const server = createHttpServer(app)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(env.port, env.host, resolve)
  })

  onListening()
  prepareNextOrderAddresses({ payload, env }).catch((error: unknown) =>
    logger.warn({ err: error }, 'could not read the next address index to derive ahead'),
  )
  logger.info(
    {
      port: env.port,
      mode: env.isProduction ? 'production' : 'test',
      database: env.databaseEngine,
      ms: Date.now() - started,
    },
    `shop ready at ${env.publicUrl} (admin ${env.publicUrl}/admin, CMS ${env.publicUrl}/cms)`,
  )
  if (demoAdmin) {
    logger.info(
      { email: demoAdmin.email, password: demoAdmin.password },
      'test mode: demo admin (sign in at /admin or /cms)',
    )
    logger.info(`test mode: buyer e-mails at ${env.publicUrl}/test-mode/outbox`)
  }

  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    void (async () => {
      try {
        await closeServer(server, 8_000)
        await nextApp.close()
        await payload.db.destroy?.()
      } finally {
        process.exit(0)
      }
    })()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}
