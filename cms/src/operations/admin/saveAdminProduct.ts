import path from 'node:path'

import { productInputSchema } from '@shop/domain'
import type { Payload } from 'payload'
import { ValidationError } from 'payload'

import { slugs } from '../../collections/slugs'
import type { AdminProduct } from './adminProduct'
import { toAdminProduct } from './adminProduct'
import type { FieldError } from './fieldErrors'
import { toFieldErrors } from './fieldErrors'
import { findProductDoc } from './getAdminProduct'
import type { CheckedFile, UploadedFile } from './uploadedFiles'
import { checkCoverImage, checkDigitalFile, isFieldError, safeFileName } from './uploadedFiles'

/** The multipart text fields of the product form (spec sections 5 and 7), as sent. */
export type ProductFormFields = Record<string, unknown>

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
      errors.push({
        path: 'digitalFile',
        msg: 'A digital file can only be attached to a digital book.',
      })
    }
  }
  if (!parsed.success || errors.length > 0) return { ok: false, status: 400, errors }
  const input = parsed.data

  // Payload checks the files again (a PDF's structure, for one): its refusal is the field's error.
  let digitalDoc: { id: number } | undefined
  let coverDoc: { id: number } | undefined
  try {
    if (digital) {
      const stem = path.basename(digital.originalName, path.extname(digital.originalName))
      digitalDoc = await storeFile({
        payload,
        collection: slugs.digitalFiles,
        file: digital,
        name: safeFileName(stem, digital.ext),
      })
    }
    if (cover) {
      coverDoc = await storeFile({
        payload,
        collection: slugs.media,
        file: cover,
        name: safeFileName(`${input.name}-cover`, cover.ext),
        alt: `Cover of ${input.name}`,
      })
    }
  } catch (error) {
    if (digitalDoc) await payload.delete({ collection: slugs.digitalFiles, id: digitalDoc.id })
    if (!(error instanceof ValidationError)) throw error
    const path = digitalDoc || !digital ? 'coverImageFile' : 'digitalFile'
    const msg =
      path === 'digitalFile'
        ? 'Digital file is not a readable PDF or EPUB file.'
        : 'Cover image is not a readable image.'
    return { ok: false, status: 400, errors: [{ path, msg }] }
  }

  // The Products collection keeps the stock relative: an edit from a loaded form moves it by
  // what the owner changed, and one without the loaded value sets what it gives.
  const data = {
    name: input.name,
    type: input.type,
    priceEUR: input.priceEUR,
    ...(input.shippingCostEUR !== undefined ? { shippingCostEUR: input.shippingCostEUR } : {}),
    totalStock: input.totalStock,
    currentStock: input.currentStock,
    ...(existing !== null && input.currentStockLoaded !== undefined
      ? { currentStockLoaded: input.currentStockLoaded }
      : {}),
    shortDescription: input.shortDescription,
    ...(input.isAvailable !== undefined
      ? { isAvailable: input.isAvailable }
      : existing
        ? {}
        : { isAvailable: true }),
    ...(coverDoc ? { coverImage: coverDoc.id } : {}),
    ...(digitalDoc ? { digitalFile: digitalDoc.id } : {}),
  }
  try {
    const saved =
      id === undefined
        ? await payload.create({ collection: slugs.products, data, depth: 1 })
        : await payload.update({ collection: slugs.products, id, data, depth: 1 })
    return { ok: true, product: toAdminProduct(saved) }
  } catch (error) {
    // The collection's own rules (an available digital book needs its file) answer per field.
    if (!(error instanceof ValidationError)) throw error
    return {
      ok: false,
      status: 400,
      errors: error.data.errors.map(({ path, message }) => ({ path: String(path), msg: message })),
    }
  }
}

async function storeFile({
  payload,
  collection,
  file,
  name,
  alt,
}: {
  payload: Payload
  collection: typeof slugs.media | typeof slugs.digitalFiles
  file: CheckedFile
  name: string
  alt?: string
}): Promise<{ id: number }> {
  const upload = { data: file.data, mimetype: file.mimetype, name, size: file.size }
  return collection === slugs.media
    ? payload.create({ collection, data: { alt }, file: upload })
    : payload.create({ collection, data: {}, file: upload })
}
