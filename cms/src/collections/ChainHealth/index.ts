import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { nobody } from '../../access/nobody'
import { slugs } from '../slugs'

/**
 * Each chain source's health as the payment worker last saw it, one row per source
 * (`chain-source` for WhatsOnChain, `arc` for ARC): its requests against the plan's limits, its
 * errors, the addresses that keep failing, the last good answer, where the two sources disagreed
 * (in `stats`), and the state of the owner's "no look succeeds" alert (WhatsOnChain's row). The
 * worker writes it (operations/chainHealth); the web process, a separate process, reads it for
 * the dashboard.
 */
export const ChainHealth: CollectionConfig = {
  slug: slugs.chainHealth,
  lockDocuments: false,
  admin: {
    group: 'Shop',
    useAsTitle: 'name',
    defaultColumns: ['name', 'lastLookOkAt', 'statsAt', 'alertedAt'],
  },
  access: { read: isAdmin, create: nobody, update: nobody, delete: nobody },
  fields: [
    { name: 'name', type: 'text', required: true, unique: true },
    {
      name: 'stats',
      type: 'json',
      admin: { description: "The chain client's own figures (calls, errors, failing addresses)." },
    },
    { name: 'statsAt', type: 'date', admin: { description: 'When the figures were recorded.' } },
    { name: 'lastLookOkAt', type: 'date', admin: { description: 'The last look that succeeded.' } },
    {
      name: 'idleAt',
      type: 'date',
      admin: { description: 'The last time no order was watched: an outage starts after it.' },
    },
    {
      name: 'alertedAt',
      type: 'date',
      admin: { description: 'When the owner was last told that no look succeeds.' },
    },
    {
      name: 'outageSince',
      type: 'date',
      admin: { description: 'Since when no look had succeeded, as that alert said.' },
    },
  ],
  timestamps: true,
}
