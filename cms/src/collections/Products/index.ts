import { isPhysical, MAX_SHIPPING_COST_EUR, PRODUCT_TYPES } from '@shop/domain'
import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { slugs } from '../slugs'
import { checkShippingCost } from './hooks/checkShippingCost'
import { keepStockRelative, stockAsRead } from './hooks/keepStockRelative'
import { normalizeLegacyType } from './hooks/normalizeLegacyType'
import { requireDigitalFile } from './hooks/requireDigitalFile'

/**
 * The books for sale (admin view of the spec's Product). The public API maps a DIGITAL book to
 * the spec's public type PDF. Products are never deleted: deletedAt marks a soft delete.
 */
export const Products: CollectionConfig = {
  slug: slugs.products,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: {
    group: 'Shop',
    useAsTitle: 'name',
    defaultColumns: ['name', 'type', 'priceEUR', 'currentStock', 'isAvailable', 'deletedAt'],
  },
  access: { read: isAdmin, create: isAdmin, update: isAdmin, delete: isAdmin },
  hooks: {
    beforeValidate: [normalizeLegacyType],
    beforeChange: [keepStockRelative],
    afterRead: [normalizeLegacyType],
  },
  fields: [
    { name: 'name', type: 'text', required: true, maxLength: 200 },
    {
      name: 'type',
      type: 'select',
      required: true,
      defaultValue: 'DIGITAL',
      options: PRODUCT_TYPES.map((value) => ({
        label: value === 'DIGITAL' ? 'Digital' : 'Physical',
        value,
      })),
    },
    { name: 'priceEUR', type: 'number', required: true, min: 0, admin: { step: 0.01 } },
    {
      // Checkout adds it to a printed book's price, so the BSV amount due covers it.
      name: 'shippingCostEUR',
      label: 'Shipping cost (EUR)',
      type: 'number',
      defaultValue: 0,
      min: 0,
      max: MAX_SHIPPING_COST_EUR,
      validate: checkShippingCost,
      admin: {
        step: 0.01,
        condition: (data) => isPhysical(data?.type),
        description:
          'Added to the price at checkout, in EUR. 0 means shipping is included in the price.',
      },
    },
    { name: 'totalStock', type: 'number', required: true, min: 0, defaultValue: 0 },
    {
      name: 'currentStock',
      type: 'number',
      required: true,
      min: 0,
      defaultValue: 0,
      admin: {
        description:
          'Copies available for sale now; checkout reserves one atomically. Saving moves the stock by what you changed here, so copies sold while this form was open are kept.',
      },
    },
    {
      // The stock this form was loaded with (see hooks/keepStockRelative.ts); never stored.
      name: 'currentStockLoaded',
      type: 'number',
      virtual: true,
      admin: { hidden: true },
      hooks: { afterRead: [stockAsRead] },
    },
    { name: 'shortDescription', type: 'textarea', maxLength: 2000 },
    { name: 'isAvailable', type: 'checkbox', defaultValue: true },
    { name: 'coverImage', type: 'upload', relationTo: slugs.media },
    {
      name: 'digitalFile',
      type: 'upload',
      relationTo: slugs.digitalFiles,
      validate: requireDigitalFile,
      admin: {
        condition: (data) => !isPhysical(data?.type),
        description: 'The PDF or EPUB buyers download. Never served publicly.',
      },
    },
    {
      name: 'deletedAt',
      type: 'date',
      index: true,
      admin: { position: 'sidebar', description: 'Set when the product is soft-deleted.' },
    },
  ],
  timestamps: true,
}
