import type { Payload } from 'payload'

/** Whether a path segment can be a document id of the engine in use (checked before querying). */
export function isDocumentId(payload: Payload, id: string): boolean {
  if (payload.db.defaultIDType === 'number') return /^[1-9]\d{0,15}$/.test(id)
  return /^[a-f0-9]{24}$/i.test(id)
}
