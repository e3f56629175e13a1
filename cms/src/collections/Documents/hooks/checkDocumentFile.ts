import path from 'node:path'

import { fileTypeFromBuffer } from 'file-type'
import type { CollectionBeforeOperationHook } from 'payload'
import { ValidationError } from 'payload'

const PEM = /^-----BEGIN [A-Z0-9 ]+-----\r?\n[\s\S]+\r?\n-----END [A-Z0-9 ]+-----\s*$/

/**
 * A document must be what its name says, read from its bytes: a .pdf a real PDF, a .pem a PEM
 * block, a .txt plain text. Payload falls back to `text/plain` for any text it cannot identify,
 * so without this an editor could publish markup or a script under a harmless name.
 */
export const checkDocumentFile: CollectionBeforeOperationHook = async ({ req, operation }) => {
  const file = req.file
  if (!file || (operation !== 'create' && operation !== 'update')) return
  const ext = path.extname(file.name).slice(1).toLowerCase()
  const data = file.data ?? Buffer.alloc(0)
  const detected = await fileTypeFromBuffer(data)
  const text = detected ? null : data.toString('utf8')
  const ok =
    ext === 'pdf'
      ? detected?.mime === 'application/pdf'
      : ext === 'pem'
        ? text !== null && PEM.test(text)
        : ext === 'txt'
          ? text !== null && !text.includes('\uFFFD') && !/[\0<]/.test(text)
          : false
  if (!ok) {
    throw new ValidationError({
      collection: 'documents',
      errors: [
        {
          path: 'file',
          message: 'A document must be a PDF (.pdf), a PEM key (.pem) or plain text (.txt).',
        },
      ],
    })
  }
}
