import { Router } from 'express'
import type { Request, Response } from 'express'
import type { Payload } from 'payload'

import type { CachedJson } from '../operations/products/catalogue'
import { createCatalogue } from '../operations/products/catalogue'

/**
 * GET /api/products and GET /api/products/:id (spec section 7), answered from the in-memory
 * catalogue (rebuilt as soon as a product changes) with an ETag, so a returning browser gets a
 * 304 without the body.
 */
export function productsRouter({ payload }: { payload: Payload }): Router {
  const router = Router()
  const catalogue = createCatalogue(payload)

  router.get('/', async (req, res) => {
    sendCached(req, res, await catalogue.list())
  })

  router.get('/:id', async (req, res) => {
    const product = await catalogue.product(req.params.id)
    if (!product) {
      res.status(404).json({ error: 'Product not found.' })
      return
    }
    sendCached(req, res, product)
  })

  return router
}

function sendCached(req: Request, res: Response, { body, etag }: CachedJson) {
  res.setHeader('Cache-Control', 'no-cache')
  res.setHeader('ETag', etag)
  if (req.headers['if-none-match'] === etag) {
    res.status(304).end()
    return
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.setHeader('Content-Length', body.length)
  res.end(body)
}
