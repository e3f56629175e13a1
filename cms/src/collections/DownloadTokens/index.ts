import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { slugs } from '../slugs'

/**
 * A buyer's right to download a purchased file. Only the SHA-256 of the token is stored, so a
 * copy of the database does not hand out links; uses are consumed with one atomic update.
 */
export const DownloadTokens: CollectionConfig = {
  slug: slugs.downloadTokens,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: { group: 'Shop', defaultColumns: ['order', 'uses', 'maxUses', 'expiresAt'] },
  // Only the shop's operations issue and consume tokens: no door (/cms, /cms/api) writes one, so
  // a link is never extended or revived by hand; the owner sends a new one instead.
  access: { read: isAdmin, create: () => false, update: () => false, delete: () => false },
  fields: [
    { name: 'tokenHash', type: 'text', required: true, unique: true, admin: { readOnly: true } },
    {
      name: 'tokenSealed',
      type: 'text',
      required: true,
      admin: { hidden: true },
      // AES-256-GCM with a key derived from PAYLOAD_SECRET: lets the holder of the order id see
      // the link on the pay screen and in the paid e-mail, without a readable token at rest.
    },
    { name: 'order', type: 'relationship', relationTo: slugs.orders, required: true, index: true },
    { name: 'product', type: 'relationship', relationTo: slugs.products, required: true },
    { name: 'expiresAt', type: 'date', required: true },
    { name: 'maxUses', type: 'number', required: true, min: 1 },
    { name: 'uses', type: 'number', required: true, defaultValue: 0, min: 0 },
  ],
  timestamps: true,
}
