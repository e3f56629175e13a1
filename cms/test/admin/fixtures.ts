import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'

/** The owner and an editor of the shops the admin tests start. */
export const OWNER = { email: 'owner@example.com', password: 'Quartz-ledger-owner-7193' }
export const EDITOR = { email: 'editor@example.com', password: 'Quartz-ledger-editor-8264' }

/** A real PNG of the given size in pixels (noise, so it does not compress away). */
export async function pngImage({
  width = 40,
  height = 60,
}: { width?: number; height?: number } = {}): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3)
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer()
}

/** A real one-page PDF (Payload checks a PDF's structure, not only its first bytes). */
export async function pdfDocument(): Promise<Buffer> {
  const document = await PDFDocument.create()
  document.addPage([300, 400]).drawText('The Dual Vote Handbook', { x: 20, y: 360, size: 14 })
  return Buffer.from(await document.save())
}

export function blob(data: Buffer, type = 'application/octet-stream'): Blob {
  return new Blob([new Uint8Array(data)], { type })
}

export type ProductFields = Partial<
  Record<
    | 'name'
    | 'type'
    | 'priceEUR'
    | 'totalStock'
    | 'currentStock'
    | 'currentStockLoaded'
    | 'shortDescription'
    | 'isAvailable',
    string
  >
>

export const validFields: ProductFields = {
  name: 'The Dual Vote Handbook',
  type: 'DIGITAL',
  priceEUR: '19.90',
  totalStock: '100',
  currentStock: '100',
  shortDescription: 'Identity, dual vote and trust metrics.',
  isAvailable: 'true',
}

export function productForm(
  fields: ProductFields,
  files: { coverImageFile?: [Blob, string]; digitalFile?: [Blob, string] } = {},
): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined) form.append(name, value)
  if (files.coverImageFile) form.append('coverImageFile', ...files.coverImageFile)
  if (files.digitalFile) form.append('digitalFile', ...files.digitalFile)
  return form
}

/** A readable PDF as a form's digital file: a digital book for sale must have one. */
export async function bookFile(name = 'book.pdf'): Promise<[Blob, string]> {
  return [blob(await pdfDocument(), 'application/pdf'), name]
}
