import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { nobody } from '../../access/nobody'
import { slugs } from '../slugs'

/**
 * What ARC posted to the shop's callback receiver (`POST /api/arc/callback`): one row per
 * callback, the transaction and the status word ARC gave it. A callback decides nothing: the
 * payment worker takes each row (`takenAt`) and asks ARC about that payment at once, by txid,
 * as one of the asks its follow schedule allows; the answer to that ask is what counts. Written
 * by the receiver alone (operations/arcCallbacks), taken and pruned after a day by the worker;
 * admins may read them, no door writes them.
 */
export const ArcCallbacks: CollectionConfig = {
  slug: slugs.arcCallbacks,
  lockDocuments: false,
  admin: {
    group: 'Shop',
    useAsTitle: 'txid',
    defaultColumns: ['txid', 'txStatus', 'createdAt', 'takenAt'],
  },
  access: { read: isAdmin, create: nobody, update: nobody, delete: nobody },
  fields: [
    { name: 'txid', type: 'text', required: true, index: true },
    { name: 'txStatus', type: 'text', required: true },
    {
      name: 'arcTimestamp',
      type: 'text',
      admin: { description: "When ARC says the status changed (the callback's timestamp)." },
    },
    {
      name: 'takenAt',
      type: 'date',
      index: true,
      admin: { description: 'When the payment worker took it and asked ARC.' },
    },
  ],
  timestamps: true,
}
