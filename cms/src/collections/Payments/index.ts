import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { slugs } from '../slugs'

/**
 * Every payment seen on the chain to an order's address, one per outpoint (txid:vout).
 * The unique outpoint makes recording idempotent: a worker that crashes and sees the same
 * transaction again cannot count it twice. Payments are never deleted.
 */
export const Payments: CollectionConfig = {
  slug: slugs.payments,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: {
    group: 'Shop',
    defaultColumns: ['outpoint', 'order', 'satoshis', 'confirmedAt', 'late'],
  },
  access: { read: isAdmin, create: () => false, update: () => false, delete: () => false },
  fields: [
    { name: 'outpoint', type: 'text', required: true, unique: true },
    { name: 'order', type: 'relationship', relationTo: slugs.orders, required: true, index: true },
    { name: 'txid', type: 'text', required: true, index: true },
    { name: 'vout', type: 'number', required: true, min: 0 },
    { name: 'satoshis', type: 'number', required: true, min: 0 },
    { name: 'address', type: 'text', required: true },
    { name: 'seenAt', type: 'date', required: true },
    { name: 'confirmedAt', type: 'date' },
    { name: 'blockHeight', type: 'number' },
    {
      name: 'invalidatedAt',
      type: 'date',
      index: true,
      admin: {
        description:
          'Set when the transaction left the chain (double-spent or dropped): it no longer counts.',
      },
    },
    { name: 'invalidReason', type: 'text' },
    {
      // The outputs this payment spends ("txid:vout"): where a conflicting spend of one of them
      // is seen, the payment was double-spent.
      name: 'spends',
      type: 'json',
      admin: { readOnly: true },
    },
    {
      name: 'missingSince',
      type: 'date',
      admin: {
        description:
          'First full look that no longer found the transaction; cleared when it is seen again.',
      },
    },
    {
      name: 'missingLooks',
      type: 'number',
      defaultValue: 0,
      admin: { description: 'Full looks in a row that did not find the transaction.' },
    },
    {
      name: 'doubtedAt',
      type: 'date',
      admin: {
        description:
          'Set while a source reports a competing spend of one of its inputs: it does not count until the chain settles it (invalid on evidence, or counted again).',
      },
    },
    { name: 'doubtReason', type: 'text' },
    {
      name: 'arcStatus',
      type: 'text',
      admin: { description: "The second source's (ARC's) last word on the transaction." },
    },
    { name: 'arcCheckedAt', type: 'date' },
    {
      // The merkle proof the shop verified itself: the path leads from the txid to the merkle
      // root of a block header whose hash and proof of work the shop recomputed. Only then does
      // the payment count as confirmed.
      name: 'proofVerifiedAt',
      type: 'date',
      admin: { description: 'When the shop verified a merkle proof of this payment.' },
    },
    { name: 'proofBlockHeight', type: 'number' },
    { name: 'proofBlockHash', type: 'text' },
    { name: 'proofMerkleRoot', type: 'text' },
    {
      name: 'proofMerklePath',
      type: 'textarea',
      admin: { description: 'The merkle path (BRC-74 BUMP, hex) that verified.' },
    },
    {
      name: 'proofSources',
      type: 'text',
      admin: { description: 'Which source gave the path, the header and the block hash.' },
    },
    {
      name: 'proofProblem',
      type: 'textarea',
      admin: {
        description:
          'A proof that did not verify (forged path, a header that does not hash or match): never a confirmation.',
      },
    },
    {
      name: 'late',
      type: 'checkbox',
      defaultValue: false,
      admin: { description: 'Arrived after the order expired.' },
    },
  ],
  timestamps: true,
}
