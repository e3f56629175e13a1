import { fileTypeFromBuffer } from 'file-type'
import { APIError, ValidationError } from 'payload'
import type { CollectionBeforeOperationHook } from 'payload'

/**
 * Files come from the uploader's own machine, never from a URL the server would fetch: Payload
 * fetches `url` server-side after the collections' checks have run, so a file by URL would skip
 * them, and the fetch itself reaches wherever the URL points. A local
 * `url` (the document's own, sent back by the admin's form) is left alone.
 */
export const refuseUploadByUrl: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (operation !== 'create' && operation !== 'update') return
  // Payload moves a REST request's `url` out of the operation's data before hooks run, so the
  // request's own data is read too.
  const sources = [(args as { data?: { url?: unknown } }).data, req.data as { url?: unknown }]
  const given = sources.map((source) => source?.url).find((url) => typeof url === 'string')
  const url = typeof given === 'string' ? given.trim() : ''
  const serverURL = req.payload.config.serverURL
  const local = url === '' || url.startsWith('/') || (serverURL !== '' && url.startsWith(serverURL))
  if (!req.file && !local)
    throw new APIError('Upload the file itself: files are not fetched from a URL.', 400)
}

/**
 * The uploaded file must be one of `mimeTypes`, read from its bytes (a name or a claimed type
 * proves nothing): an image for covers, a PDF or EPUB for books.
 */
export function fileContentIs({
  collection,
  mimeTypes,
  message,
}: {
  collection: string
  mimeTypes: readonly string[]
  message: string
}): CollectionBeforeOperationHook {
  return async ({ operation, req }) => {
    const file = req.file
    if (!file || (operation !== 'create' && operation !== 'update')) return
    const detected = await fileTypeFromBuffer(file.data ?? Buffer.alloc(0))
    if (!detected || !mimeTypes.includes(detected.mime))
      throw new ValidationError({ collection, errors: [{ path: 'file', message }] })
    // The stored type is the detected one, whatever the upload claimed.
    file.mimetype = detected.mime
  }
}
