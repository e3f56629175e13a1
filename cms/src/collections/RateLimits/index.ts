import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { nobody } from '../../access/nobody'
import { slugs } from '../slugs'

/**
 * Hits per client and window for the shop's rate limits (checkout, downloads, sign-in doors),
 * shared by every web process behind the proxy (server/rateLimitStore.ts). Written only by one
 * atomic upsert per hit (db/rateLimits.ts countRateLimitHit); expired rows are swept away.
 */
export const RateLimits: CollectionConfig = {
  slug: slugs.rateLimits,
  lockDocuments: false,
  admin: { group: 'Shop', useAsTitle: 'key', hidden: true },
  access: { read: isAdmin, create: nobody, update: nobody, delete: nobody },
  fields: [
    { name: 'key', type: 'text', required: true, unique: true },
    { name: 'hits', type: 'number', required: true, defaultValue: 0 },
    { name: 'resetAt', type: 'date', required: true, index: true },
  ],
}
