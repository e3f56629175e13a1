import type { CollectionAfterReadHook, CollectionBeforeValidateHook } from 'payload'

/** Products imported from the old shop carry type PDF or EPUB: both are DIGITAL books now. */
const LEGACY_DIGITAL_TYPES = new Set(['PDF', 'EPUB'])

export const normalizeLegacyType: CollectionBeforeValidateHook & CollectionAfterReadHook = (
  args,
) => {
  const doc = ('doc' in args ? args.doc : args.data) as { type?: unknown } | undefined
  if (doc && typeof doc.type === 'string' && LEGACY_DIGITAL_TYPES.has(doc.type.toUpperCase())) {
    doc.type = 'DIGITAL'
  }
  return doc
}
