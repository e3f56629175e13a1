import path from 'node:path'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { AdminProduct } from './adminProduct'
import { toAdminProduct } from './adminProduct'
import type { FieldError } from './fieldErrors'
import { toFieldErrors } from './fieldErrors'
import { findProductDoc } from './getAdminProduct'
import type { ProductFormFields } from './productInput'
import { productInputSchema } from './productInput'
import type { CheckedFile, UploadedFile } from './uploadedFiles'
import { checkCoverImage, checkDigitalFile, isFieldError, safeFileName } from './uploadedFiles'

export type ProductFiles = { coverImageFile?: UploadedFile; digitalFile?: UploadedFile }

export type SaveProductResult =
  | { ok: true; product: AdminProduct }
  | { ok: false; status: 400; errors: FieldError[] }
  | { ok: false; status: 404; error: string }

/**
 * Creates a product (no id) or updates one from the admin form: validates every field and
 * file first and reports all problems at once, then stores the files and the product.
 * Replaced files are kept: orders already paid may still be downloading the old book.
 */
export async function saveAdminProduct({
  payload,
  id,
  fields,
  files,
}: {
  payload: Payload
  id?: number | string
  fields: ProductFormFields
  files: ProductFiles
}): Promise<SaveProductResult> {
  const existing = id === undefined ? null : await findProductDoc({ payload, id })
  if (id !== undefined && !existing) return { ok: false, status: 404, error: 'Product not found.' }

  const parsed = productInputSchema.safeParse(fields)
  const errors: FieldError[] = parsed.success ? [] : toFieldErrors(parsed.error)

  let cover: CheckedFile | undefined
  if (files.coverImageFile) {
    const checked = await checkCoverImage(files.coverImageFile)
    if (isFieldError(checked)) errors.push(checked)
    else cover = checked
  }
  let digital: CheckedFile | undefined
  if (files.digitalFile) {
    const checked = await checkDigitalFile(files.digitalFile)
    if (isFieldError(checked)) errors.push(checked)
    else digital = checked
    if (parsed.success && parsed.data.type === 'PHYSICAL') {
      errors.push({ path: 'digitalFile', msg: 'A digital file can only be attached to a digital book.' })
    }
  }
  if (!parsed.success || errors.length > 0) return { ok: false, status: 400, errors }
  const input = parsed.data

  const coverDoc = cover
    ? await payload.create({
        collection: slugs.media,
        data: { alt: `Cover of ${input.name}` },
        file: { data: cover.data, mimetype: cover.mimetype, name: safeFileName(`${input.name}-cover`, cover.ext), size: cover.size },
      })
    : undefined
  const digitalDoc = digital
    ? await payload.create({
        collection: slugs.digitalFiles,
        data: {},
        file: {
          data: digital.data,
          mimetype: digital.mimetype,
          name: safeFileName(path.basename(digital.originalName, path.extname(digital.originalName)), digital.ext),
          size: digital.size,
        },
      })
    : undefined

  const data = {
    name: input.name,
    type: input.type,
    priceEUR: input.priceEUR,
    totalStock: input.totalStock,
    currentStock: input.currentStock,
    shortDescription: input.shortDescription,
    ...(input.isAvailable !== undefined ? { isAvailable: input.isAvailable } : existing ? {} : { isAvailable: true }),
    ...(coverDoc ? { coverImage: coverDoc.id } : {}),
    ...(digitalDoc ? { digitalFile: digitalDoc.id } : {}),
  }
  const saved =
    id === undefined
      ? await payload.create({ collection: slugs.products, data, depth: 1 })
      : await payload.update({ collection: slugs.products, id, data, depth: 1 })
  return { ok: true, product: toAdminProduct(saved) }
}
