import { Router } from 'express'
import type { Request, Response } from 'express'
import zlib from 'node:zlib'

import type { CachedJson, Catalogue } from '../operations/products/catalogue'
import type { Logger } from '../server/logger'
import { apiErrorHandler } from './errors'

/** Answers smaller than this go uncompressed (as the compression middleware does elsewhere). */
const GZIP_MIN_BYTES = 1024

/**
 * GET /api/products and GET /api/products/:id (spec section 7), answered from the in-memory
 * catalogue (rebuilt as soon as a product changes) with an ETag, so a returning browser gets a
 * 304 without the body. It is the shop's hottest path, so the app mounts it ahead of request
 * logging and on-the-fly compression: each answer's gzip is made once per catalogue version.
 * Other methods fall through to the API's 404.
 */
export function productsRouter({
  catalogue,
  logger,
}: {
  catalogue: Catalogue
  logger: Logger
}): Router {
  const router = Router()

  router.get('/', async (req, res) => {
    sendCached(req, res, await catalogue.list())
  })

  router.get('/:id', async (req, res) => {
    const product = await catalogue.product(req.params.id)
    if (!product) {
      res.setHeader('Cache-Control', 'no-store')
      res.status(404).json({ error: 'Product not found.' })
      return
    }
    sendCached(req, res, product)
  })

  router.use(apiErrorHandler(logger))
  return router
}

const acceptsGzip = (req: Request) => /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))

function sendCached(req: Request, res: Response, cached: CachedJson) {
  res.setHeader('Cache-Control', 'no-cache')
  res.setHeader('Vary', 'Accept-Encoding')
  res.setHeader('ETag', cached.etag)
  if (req.headers['if-none-match'] === cached.etag) {
    res.status(304).end()
    return
  }
  let body = cached.body
  if (body.length >= GZIP_MIN_BYTES && acceptsGzip(req)) {
    cached.gzip ??= zlib.gzipSync(body)
    body = cached.gzip
    res.setHeader('Content-Encoding', 'gzip')
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.setHeader('Content-Length', body.length)
  res.end(body)
}
