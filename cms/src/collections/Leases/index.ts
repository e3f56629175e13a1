import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { nobody } from '../../access/nobody'
import { slugs } from '../slugs'

/**
 * Leases: who may run a singleton job right now. `payment-worker` is held by one worker process
 * at a time; the holder renews it every few seconds, and when it dies the lease expires and a
 * standby worker takes it (db/leases.ts claimLease), in a new epoch. Written only by that atomic
 * claim.
 */
export const Leases: CollectionConfig = {
  slug: slugs.leases,
  lockDocuments: false,
  admin: { group: 'Shop', useAsTitle: 'name', defaultColumns: ['name', 'holder', 'expiresAt'] },
  access: { read: isAdmin, create: nobody, update: nobody, delete: nobody },
  fields: [
    { name: 'name', type: 'text', required: true, unique: true },
    { name: 'holder', type: 'text', required: true },
    {
      // Counts the holders in turn: a claim that does not renew a running lease of the same
      // holder starts a new epoch, so a holder whose lease lapsed knows it (and drops what it
      // knew) even when no one else took it meanwhile.
      name: 'epoch',
      type: 'number',
      required: true,
      defaultValue: 1,
    },
    {
      name: 'expiresAt',
      type: 'date',
      required: true,
      admin: { date: { pickerAppearance: 'dayAndTime' } },
    },
  ],
}
