import express from 'express'
import type { Express, RequestHandler } from 'express'
import path from 'node:path'
import compression from 'compression'
import helmet from 'helmet'
import type { Payload } from 'payload'

import { apiRouter } from '../api'
import { downloadRouter } from '../api/download'
import { createCatalogue } from '../operations/products/catalogue'
import { testModeOutboxRouter } from '../api/test-mode-outbox'
import type { Env } from '../config/env'
import { slugs } from '../collections/slugs'
import { fromRoot } from '../config/paths'
import { runInWriterScope } from '../db/sqlite-client'
import { limitCmsBodies } from './cmsBodyLimits'
import { noStoreForPrivateAnswers } from './privateAnswers'
import { precompressedFiles } from './precompressed'
import { storefrontPage } from './storefrontPage'
import { serveUserFiles } from './userFiles'
import { fileStoreOf } from '../storage'
import { dropBodiesOfBodilessRequests } from './bodilessRequests'
import { canonicalPath } from './canonicalPath'
import { cmsContentSecurityPolicy } from './cmsCsp'
import { closeFirstRegister, hideMigrations, limitCmsAuth } from './cmsDoors'
import { guardCmsQueries } from './cmsQueryGuard'
import type { Logger } from './logger'

export type CreateAppArgs = {
  payload: Payload
  env: Env
  logger: Logger
  /** Next's request handler for Payload's admin and REST under /cms. */
  nextHandler?: RequestHandler
  /** Next runs in development mode (fast refresh needs eval and a websocket). */
  dev?: boolean
  storefrontDir?: string
}

/** The shop's storefront: the Vite build, served with the SPA fallback. */
export const defaultStorefrontDir = fromRoot('storefront/dist')

// The storefront's pages work with this policy (no inline scripts); Payload's admin under
// /cms is Next's, which writes inline scripts: it has its own policy with a nonce (cmsCsp.ts).
const storefrontCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
})

export function createApp({
  payload,
  env,
  logger,
  nextHandler,
  dev = false,
  storefrontDir = defaultStorefrontDir,
}: CreateAppArgs): Express {
  const app = express()
  app.disable('x-powered-by')
  // A body sent with a GET is read before the answer, so the answer is not reset
  // (bodilessRequests.ts).
  app.use(dropBodiesOfBodilessRequests)
  // Every guard below sees a path in one spelling only (canonicalPath.ts).
  app.use(canonicalPath)
  // Each request is one writer scope: a write Payload makes beside the transaction it opened
  // joins that transaction instead of deadlocking on it (db/sqlite-client.ts, point 4).
  app.use((_req, _res, next) => runInWriterScope(next))
  // Nobody by default: a forged X-Forwarded-For must not choose the client's rate-limit bucket.
  app.set('trust proxy', env.trustProxy)

  app.use(
    helmet({
      contentSecurityPolicy: false,
      hsts: env.isProduction ? { maxAge: 31536000, includeSubDomains: true } : false,
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
    }),
  )
  // The spec's /api, every route of it in one place (api/index.ts), ahead of the request log and
  // compression the rest of the app uses (the API has its own, beside its hot paths).
  const catalogue = createCatalogue(payload)
  app.use('/api', storefrontCsp, apiRouter({ payload, logger, catalogue }))

  // gzip for the storefront's files and pages over 1 KB; Next compresses its own.
  app.use(
    compression({
      filter: (req, res) => !/^\/(cms|_next)(\/|$)/.test(req.path) && compression.filter(req, res),
    }),
  )

  app.use(noStoreForPrivateAnswers)

  // For the proxy and the container's healthcheck: the process answers and its database does.
  app.get('/healthz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    try {
      await payload.count({ collection: slugs.counters, overrideAccess: true })
      res.json({ ok: true, database: 'ok' })
    } catch (error) {
      logger.error({ err: error }, 'health check: the database does not answer')
      res.status(503).json({ ok: false, database: 'unreachable' })
    }
  })

  app.use('/download', storefrontCsp, downloadRouter({ payload, logger }))
  app.use('/test-mode', storefrontCsp, testModeOutboxRouter({ payload, logger }))

  // Public uploads: book covers and the documents editors publish (papers, public key).
  app.use('/media', serveUserFiles(fileStoreOf(env), 'media'))
  app.use('/documents', serveUserFiles(fileStoreOf(env), 'documents'))

  if (env.isProduction) app.use(closeFirstRegister())
  app.use(hideMigrations)
  app.use(limitCmsAuth(payload))
  app.use(guardCmsQueries({ payload }))
  app.use(
    limitCmsBodies({
      payload,
      anonymousBytes: env.cmsAnonymousBodyKb * 1024,
      maxUploadBytes: env.maxUploadMb * 1024 * 1024,
    }),
  )
  app.use(cmsContentSecurityPolicy({ dev }))
  if (nextHandler) {
    app.all(
      ['/cms', '/cms/{*rest}', '/_next/{*rest}', '/__nextjs_original-stack-frames'],
      nextHandler,
    )
  } else {
    app.all(['/cms', '/cms/{*rest}'], (_req, res) => {
      res.status(503).type('text/plain').send('The CMS is not running in this process.')
    })
  }

  app.use(storefrontCsp)
  app.use('/assets', precompressedFiles(path.join(storefrontDir, 'assets')))
  app.use(
    '/assets',
    express.static(path.join(storefrontDir, 'assets'), {
      fallthrough: false,
      immutable: true,
      maxAge: '1y',
      index: false,
    }),
  )
  app.use(express.static(storefrontDir, { index: false, maxAge: '1h' }))
  app.get('/{*path}', storefrontPage({ storefrontDir, payload, catalogue, logger }))

  app.use(((err, _req, res, _next) => {
    const status = typeof err?.status === 'number' ? err.status : 500
    if (status >= 500) logger.error({ err }, 'request failed')
    res
      .status(status)
      .type('text/plain')
      .send(
        status === 404 ? 'Not found.' : status >= 500 ? 'Internal server error.' : 'Bad request.',
      )
  }) as express.ErrorRequestHandler)

  return app
}
