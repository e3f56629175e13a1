import { Router } from 'express'
import type { Payload } from 'payload'

import { getPublicProduct } from '../operations/products/getPublicProduct'
import { listPublicProducts } from '../operations/products/listPublicProducts'
import { isDocumentId } from './ids'

/** GET /api/products and GET /api/products/:id (spec section 7). */
export function productsRouter({ payload }: { payload: Payload }): Router {
  const router = Router()

  router.get('/', async (_req, res) => {
    res.json(await listPublicProducts({ payload }))
  })

  router.get('/:id', async (req, res) => {
    const { id } = req.params
    const product = isDocumentId(payload, id) ? await getPublicProduct({ payload, id }) : null
    if (!product) {
      res.status(404).json({ error: 'Product not found.' })
      return
    }
    res.json(product)
  })

  return router
}
