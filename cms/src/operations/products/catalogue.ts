import crypto from 'node:crypto'
import type { Payload } from 'payload'

import type { VersionReader } from '../../db/catalogueVersion'
import { openVersionReader } from '../../db/catalogueVersion'
import { listPublicProducts } from './listPublicProducts'

/** A JSON answer ready to send: the bytes, their ETag and, once asked for, their gzip. */
export type CachedJson = { body: Buffer; etag: string; gzip?: Buffer }

export type Catalogue = {
  list: () => Promise<CachedJson>
  /** One product, or null when it is missing, hidden or soft-deleted. */
  product: (id: string) => Promise<CachedJson | null>
}

/**
 * The public catalogue as ready-to-send JSON, served from memory while the data behind it is
 * unchanged. Every request first reads a version of that data (each product's id, stock and
 * update time, and the newest cover change): a few rows, read synchronously in microseconds
 * through a connection of the catalogue's own with the statement prepared once. A separate
 * connection sees every writer's commits (an admin's edit in this process, a checkout in another
 * web process, the worker releasing stock), so a change is visible on the next request. On
 * MongoDB the catalogue is built for each request.
 */
export function createCatalogue(payload: Payload): Catalogue {
  type Snapshot = { list: CachedJson; byId: Map<string, CachedJson> }
  let version: string | null = null
  let current: Snapshot | null = null
  let building: { version: string | null; snapshot: Promise<Snapshot> } | null = null
  let reader: Promise<VersionReader | null> | null = null

  const readVersion = async (): Promise<string | null> => {
    reader ??= openVersionReader(payload).catch((error: unknown) => {
      reader = null // tried again on the next request
      throw error
    })
    const read = await reader
    return read ? read() : null
  }

  const build = async (): Promise<Snapshot> => {
    const products = await listPublicProducts({ payload })
    const byId = new Map(products.map((p) => [String(p.id), toCached(p)]))
    return { list: toCached(products), byId }
  }

  const fresh = async (): Promise<Snapshot> => {
    const seen = await readVersion()
    if (seen !== null && seen === version && current) return current
    // Requests that saw the same version share one rebuild. A rebuild started before a change is
    // never stored under the newer version: it only serves the requests that saw its own.
    if (!building || building.version !== seen || seen === null) {
      const started = { version: seen, snapshot: build() }
      building = started
      void started.snapshot
        .finally(() => {
          if (building === started) building = null
        })
        .catch(() => {})
    }
    const built = await building.snapshot
    if (seen !== null) {
      version = seen
      current = built
    }
    return built
  }

  return {
    list: async () => (await fresh()).list,
    product: async (id) => (await fresh()).byId.get(id) ?? null,
  }
}

function toCached(value: unknown): CachedJson {
  const body = Buffer.from(JSON.stringify(value))
  const etag = `"${crypto.createHash('sha1').update(body).digest('base64url')}"`
  return { body, etag }
}
