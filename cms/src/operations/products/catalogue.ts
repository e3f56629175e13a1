import crypto from 'node:crypto'

import type { Payload } from 'payload'

import { engineOf, sqlite } from '../../db/atomic'
import { listPublicProducts } from './listPublicProducts'

/** A JSON answer ready to send: the bytes and their ETag. */
export type CachedJson = { body: Buffer; etag: string }

export type Catalogue = {
  list: () => Promise<CachedJson>
  /** One product, or null when it is missing, hidden or soft-deleted. */
  product: (id: string) => Promise<CachedJson | null>
}

/**
 * The public catalogue as ready-to-send JSON, served from memory while the data behind it is
 * unchanged. Every request first reads a version of that data (each product's id, stock and
 * update time, and the newest cover change): a few rows, one SQLite read of microseconds that
 * sees every writer (an admin's edit, a checkout in another web process, the worker releasing
 * stock), so a change is visible on the next request; requests arriving together share that
 * read. On MongoDB the catalogue is built for each request.
 */
export function createCatalogue(payload: Payload): Catalogue {
  type Snapshot = { list: CachedJson; byId: Map<string, CachedJson> }
  let version: string | null = null
  let current: Snapshot | null = null
  let building: { version: string | null; snapshot: Promise<Snapshot> } | null = null

  const readVersion = async (): Promise<string | null> => {
    if (engineOf(payload) !== 'sqlite') return null
    const result = await sqlite(payload).execute(
      `SELECT (SELECT group_concat(id || ':' || coalesce(current_stock, '') || ':' || updated_at, ',') FROM products)
         || '|' || coalesce((SELECT max(updated_at) FROM media), '') AS v`,
    )
    return String(result.rows[0]?.v ?? '')
  }

  // Requests that arrive together share one version read, started after all of them arrived
  // (on the next turn of the event loop), so none of them can miss a change made before it.
  let sharedRead: Promise<string | null> | null = null
  const readVersionShared = () =>
    (sharedRead ??= new Promise((resolve, reject) =>
      setImmediate(() => {
        sharedRead = null
        readVersion().then(resolve, reject)
      }),
    ))

  const build = async (): Promise<Snapshot> => {
    const products = await listPublicProducts({ payload })
    const byId = new Map(products.map((p) => [String(p.id), toCached(p)]))
    return { list: toCached(products), byId }
  }

  const fresh = async (): Promise<Snapshot> => {
    const seen = await readVersionShared()
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
