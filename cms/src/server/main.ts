/**
 * The web process: validates the settings, starts Payload and Next, seeds test mode, and
 * serves the shop on one port. `npm start` runs it beside the payment worker.
 */
import http from 'node:http'

import { EnvError, loadEnv } from '../config/env'
import { fromRoot } from '../config/paths'
import { createLogger } from './logger'

const dev = process.argv.includes('--dev')

async function main() {
  let env
  try {
    env = loadEnv()
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(`The shop cannot start.\n${error.message}`)
      process.exit(1)
    }
    throw error
  }
  // Next switches NODE_ENV to production when it is unset: pin test mode explicitly.
  ;(process.env as Record<string, string>).NODE_ENV = env.nodeEnv
  const logger = createLogger(env.logLevel)
  const started = Date.now()

  const [
    { getPayload },
    { default: config },
    { default: next },
    { createApp },
    { seed },
    { ensureDemoAdmin },
  ] = await Promise.all([
    import('payload'),
    import('../payload.config'),
    import('next'),
    import('./app'),
    import('../seed'),
    import('../bootstrap/demoAdmin'),
  ])

  const payload = await getPayload({ config })
  let demoAdmin
  if (!env.isProduction && env.seed === 'auto') {
    await seed({ payload, env, logger })
    demoAdmin = await ensureDemoAdmin({ payload, env })
  }

  const nextApp = next({ dev, dir: fromRoot('cms'), quiet: !dev })
  await nextApp.prepare()
  const handle = nextApp.getRequestHandler()

  const app = createApp({ payload, env, logger, nextHandler: (req, res) => handle(req, res) })
  const server = http.createServer(app)
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(env.port, env.host, resolve)
  })

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
  }

  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    server.close(async () => {
      try {
        await nextApp.close()
        await payload.db.destroy?.()
      } finally {
        process.exit(0)
      }
    })
    server.closeIdleConnections()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((error) => {
  console.error('The shop failed to start:', error)
  process.exit(1)
})
