import path from 'node:path'
import { fileTypeFromBuffer } from 'file-type'

import { COVER_MIME_TYPES } from '../../collections/Media'
import type { FieldError } from './fieldErrors'

/** A file received in memory (multer's shape, reduced to what the shop reads). */
export type UploadedFile = { buffer: Buffer; originalname: string; size: number }

export type CheckedFile = {
  data: Buffer
  mimetype: string
  ext: string
  size: number
  originalName: string
}

export const COVER_MAX_BYTES = 5 * 1024 * 1024
export const DIGITAL_MAX_BYTES = 50 * 1024 * 1024

const DIGITAL_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`

/**
 * A cover must really be an image (read from its bytes, not its name or the browser's claim).
 */
export async function checkCoverImage(file: UploadedFile): Promise<CheckedFile | FieldError> {
  if (file.size > COVER_MAX_BYTES) {
    return {
      path: 'coverImageFile',
      msg: `Cover image must be at most ${megabytes(COVER_MAX_BYTES)}.`,
    }
  }
  const detected = await fileTypeFromBuffer(file.buffer)
  if (!detected || !COVER_MIME_TYPES.includes(detected.mime)) {
    return {
      path: 'coverImageFile',
      msg: 'Cover image must be a JPEG, PNG, WebP, GIF or AVIF image.',
    }
  }
  return {
    data: file.buffer,
    mimetype: detected.mime,
    ext: detected.ext,
    size: file.size,
    originalName: file.originalname,
  }
}

/**
 * A digital book must be named .pdf or .epub and its bytes must be that format: a renamed
 * file of any other kind is refused.
 */
export async function checkDigitalFile(file: UploadedFile): Promise<CheckedFile | FieldError> {
  if (file.size > DIGITAL_MAX_BYTES) {
    return {
      path: 'digitalFile',
      msg: `Digital file must be at most ${megabytes(DIGITAL_MAX_BYTES)}.`,
    }
  }
  const ext = path.extname(file.originalname).slice(1).toLowerCase()
  const expected = DIGITAL_TYPES[ext]
  const wrong: FieldError = {
    path: 'digitalFile',
    msg: 'Digital file must be a PDF or EPUB file (.pdf or .epub).',
  }
  if (!expected) return wrong
  const detected = await fileTypeFromBuffer(file.buffer)
  if (!detected || detected.mime !== expected) return wrong
  return {
    data: file.buffer,
    mimetype: expected,
    ext,
    size: file.size,
    originalName: file.originalname,
  }
}

export function isFieldError(value: CheckedFile | FieldError): value is FieldError {
  return 'msg' in value
}

/** A file name safe on any disk and in a URL: letters, digits, dashes; the checked extension. */
export function safeFileName(base: string, ext: string): string {
  const stem =
    base
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'file'
  return `${stem}.${ext}`
}
