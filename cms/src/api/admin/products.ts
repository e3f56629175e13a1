import type { Request, RequestHandler, Response, Router } from 'express'
import multer from 'multer'
import type { Payload } from 'payload'

import { getAdminProduct } from '../../operations/admin/getAdminProduct'
import { listAdminProducts } from '../../operations/admin/listAdminProducts'
import type { ProductFiles } from '../../operations/admin/saveAdminProduct'
import { saveAdminProduct } from '../../operations/admin/saveAdminProduct'
import { setProductDeleted } from '../../operations/admin/setProductDeleted'
import { COVER_MAX_BYTES, DIGITAL_MAX_BYTES } from '../../operations/admin/uploadedFiles'
import type { Logger } from '../../server/logger'
import { isDocumentId } from '../../db/ids'

const FILE_FIELDS = ['coverImageFile', 'digitalFile'] as const

const fileTooLarge: Record<string, string> = {
  coverImageFile: `Cover image must be at most ${COVER_MAX_BYTES / (1024 * 1024)} MB.`,
  digitalFile: `Digital file must be at most ${DIGITAL_MAX_BYTES / (1024 * 1024)} MB.`,
}

/**
 * The product form's multipart body, in memory (files are checked by content before anything
 * is written). Limit errors become the spec's `{ errors: [{ path, msg }] }` under their field.
 */
const productForm: RequestHandler = (() => {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: DIGITAL_MAX_BYTES, files: 2, fields: 20, fieldSize: 16 * 1024, parts: 24 },
  }).fields(FILE_FIELDS.map((name) => ({ name, maxCount: 1 })))
  return (req, res, next) => {
    upload(req, res, (error: unknown) => {
      if (!error) {
        next()
        return
      }
      if (error instanceof multer.MulterError) {
        const path = error.field ?? 'form'
        const msg =
          error.code === 'LIMIT_FILE_SIZE'
            ? (fileTooLarge[path] ?? 'File is too large.')
            : error.code === 'LIMIT_UNEXPECTED_FILE'
              ? `Unexpected file field "${path}".`
              : 'The form is too large.'
        res.status(error.code === 'LIMIT_FILE_SIZE' ? 413 : 400).json({ errors: [{ path, msg }] })
        return
      }
      // Files stay in memory, so any other error is the body itself: no boundary, a broken part.
      res.status(400).json({
        errors: [
          { path: 'form', msg: 'The form could not be read: the multipart body is malformed.' },
        ],
      })
    })
  }
})()

function filesOf(files: unknown): ProductFiles {
  const byField = (files ?? {}) as Record<string, Express.Multer.File[] | undefined>
  return { coverImageFile: byField.coverImageFile?.[0], digitalFile: byField.digitalFile?.[0] }
}

export function productRoutes(
  router: Router,
  { payload, logger }: { payload: Payload; logger: Logger },
) {
  const notFound = { error: 'Product not found.' }

  router.get('/products', async (_req, res) => {
    res.json(await listAdminProducts({ payload }))
  })

  /**
   * Saves the product form as a new product (no id) or over product `id`; answers a refusal
   * (400 with the fields' errors, or 404) itself and returns the saved product otherwise.
   */
  async function saveForm(req: Request, res: Response, id?: string) {
    const result = await saveAdminProduct({
      payload,
      id,
      fields: req.body ?? {},
      files: filesOf(req.files),
    })
    if (result.ok) return result.product
    res
      .status(result.status)
      .json(result.status === 400 ? { errors: result.errors } : { error: result.error })
    return null
  }

  router.post('/products', productForm, async (req, res) => {
    const product = await saveForm(req, res)
    if (!product) return
    logger.info({ productId: product.id }, 'product created')
    res.status(201).json(product)
  })

  router.get('/products/:id', async (req, res) => {
    const id = String(req.params.id)
    const product = isDocumentId(payload, id) ? await getAdminProduct({ payload, id }) : null
    if (!product) {
      res.status(404).json(notFound)
      return
    }
    res.json(product)
  })

  router.put('/products/:id', productForm, async (req, res) => {
    const id = String(req.params.id)
    if (!isDocumentId(payload, id)) {
      res.status(404).json(notFound)
      return
    }
    const product = await saveForm(req, res, id)
    if (!product) return
    logger.info({ productId: id }, 'product updated')
    res.json(product)
  })

  // Soft delete and restore differ only in the marker they set.
  const setDeleted =
    (deleted: boolean): RequestHandler =>
    async (req, res) => {
      const id = String(req.params.id)
      const product = isDocumentId(payload, id)
        ? await setProductDeleted({ payload, id, deleted })
        : null
      if (!product) {
        res.status(404).json(notFound)
        return
      }
      logger.info({ productId: id }, deleted ? 'product soft-deleted' : 'product restored')
      res.json(product)
    }
  router.delete('/products/:id', setDeleted(true))
  router.post('/products/:id/restore', setDeleted(false))
}
