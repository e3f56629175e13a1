import { normalizeProductType } from '@shop/domain'
import type { CollectionAfterReadHook, CollectionBeforeValidateHook } from 'payload'

/** Products imported from the old shop carry type PDF or EPUB: both are DIGITAL books now. */
export const normalizeLegacyType: CollectionBeforeValidateHook & CollectionAfterReadHook = (
  args,
) => {
  const doc = ('doc' in args ? args.doc : args.data) as { type?: unknown } | undefined
  const type = normalizeProductType(doc?.type)
  if (doc && type) doc.type = type
  return doc
}
