import { Forbidden } from 'payload'
import type {
  Access,
  Collection,
  CollectionBeforeValidateHook,
  PayloadRequest,
  SanitizedConfig,
} from 'payload'

const LOCKS = 'payload-locked-documents'

type LockData = {
  document?: { relationTo?: unknown; value?: unknown } | null
  globalSlug?: unknown
  user?: { relationTo?: unknown; value?: unknown } | number | string | null
}

/** Whether the signed-in user may update what a lock names: a lockable document or global. */
async function mayUpdate(req: PayloadRequest, data: LockData): Promise<boolean> {
  const { payload } = req
  if (data.document && typeof data.document === 'object') {
    const slug = String(data.document.relationTo)
    const collection = (payload.collections as Record<string, Collection | undefined>)[slug]
    if (!collection || collection.config.lockDocuments === false) return false
    const update = collection.config.access.update as Access
    return Boolean(await update({ req, id: data.document.value as number }))
  }
  if (typeof data.globalSlug === 'string') {
    const global = payload.globals.config.find((g) => g.slug === data.globalSlug)
    if (!global || global.lockDocuments === false) return false
    return Boolean(await (global.access.update as Access)({ req }))
  }
  return false
}

/**
 * A lock is written only by someone who may update what it names, in their own name: an
 * editor could otherwise lock an order or a product (admins then met 423 on it) or write a lock
 * in an admin's name. The shop's own code (the Local API without a user) is not limited.
 */
const lockOnlyWhatYouMayUpdate: CollectionBeforeValidateHook = async ({ data, req }) => {
  if (!req.user) {
    if (req.payloadAPI === 'local') return data
    throw new Forbidden(req.t)
  }
  const lock = (data ?? {}) as LockData
  const owner = lock.user && typeof lock.user === 'object' ? lock.user.value : lock.user
  if (owner !== undefined && owner !== null && String(owner) !== String(req.user.id))
    throw new Forbidden(req.t)
  if (lock.document === undefined && lock.globalSlug === undefined) return data
  if (!(await mayUpdate(req, lock))) throw new Forbidden(req.t)
  return data
}

/**
 * Payload adds its document-locks collection while it sanitizes the config, with access for any
 * signed-in user; this gives it the rule above.
 */
export function restrictDocumentLocks(config: SanitizedConfig): SanitizedConfig {
  const locks = config.collections.find((c) => c.slug === LOCKS)
  if (locks) locks.hooks.beforeValidate = [lockOnlyWhatYouMayUpdate, ...locks.hooks.beforeValidate]
  return config
}
