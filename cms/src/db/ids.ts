import type { Payload } from 'payload'

/**
 * The largest id PostgreSQL's `serial` columns hold (a 4-byte integer): a larger number in a
 * query is refused by the server ("value out of range for type integer"), not found. SQLite's
 * integers have 8 bytes.
 */
const POSTGRES_MAX_ID = 2_147_483_647

/** Whether a path segment can be a document id of the engine in use (checked before querying). */
export function isDocumentId(payload: Payload, id: string): boolean {
  if (payload.db.defaultIDType === 'number')
    return (
      /^[1-9]\d{0,15}$/.test(id) &&
      (payload.db.name !== 'postgres' || Number(id) <= POSTGRES_MAX_ID)
    )
  return /^[a-f0-9]{24}$/i.test(id)
}
