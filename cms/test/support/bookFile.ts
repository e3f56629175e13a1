import type { Payload } from 'payload'

import { slugs } from '../../src/collections/slugs'
import { makePdf } from '../../src/seed/files'

/** A stored book file for a digital product made in a test (one for sale must have its file). */
export async function storedBookFile(payload: Payload, name = 'test-book.pdf'): Promise<number> {
  const data = await makePdf({ title: 'Test book', lines: ['A book made by a test.'] })
  const doc = await payload.create({
    collection: slugs.digitalFiles,
    data: {},
    file: { data, mimetype: 'application/pdf', name, size: data.length },
  })
  return doc.id as number
}
