import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { slugs } from '../slugs'

/**
 * Monotonic counters claimed with one atomic increment. `address-index` is the next BIP32
 * index (0/n) for a payment address: it only grows, so no address is ever given out twice.
 */
export const Counters: CollectionConfig = {
  slug: slugs.counters,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: { group: 'Shop', useAsTitle: 'name' },
  access: { read: isAdmin, create: () => false, update: () => false, delete: () => false },
  fields: [
    { name: 'name', type: 'text', required: true, unique: true },
    { name: 'value', type: 'number', required: true, defaultValue: 0 },
  ],
}
