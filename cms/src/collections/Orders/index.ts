import type { CollectionConfig } from 'payload'

import { INITIAL_ORDER_STATUS, ORDER_STATUSES } from '@shop/domain'

import { isAdmin } from '../../access/isAdmin'
import { slugs } from '../slugs'
import { assignOrderId } from './hooks/assignOrderId'

/**
 * A buyer's order. Field names follow the spec's admin order; two of them keep their historical
 * names but hold euros: `priceAtPurchaseUSD` is the price paid in EUR and `bsvUsdRateAtPurchase`
 * is the EUR per BSV rate taken at checkout.
 *
 * The id is a random UUID (never sequential, never an ObjectId): it appears in the buyer's
 * pay and success URLs, and guessing it must not reveal anyone's download link.
 */
export const Orders: CollectionConfig = {
  slug: slugs.orders,
  admin: {
    group: 'Shop',
    useAsTitle: 'id',
    defaultColumns: ['id', 'productName', 'status', 'userEmail', 'createdAt'],
  },
  access: { read: isAdmin, create: isAdmin, update: isAdmin, delete: () => false },
  hooks: { beforeValidate: [assignOrderId] },
  fields: [
    { name: 'id', type: 'text', required: true, admin: { readOnly: true } },
    {
      name: 'status',
      type: 'select',
      required: true,
      index: true,
      defaultValue: INITIAL_ORDER_STATUS,
      options: ORDER_STATUSES.map((value) => ({ label: value, value })),
    },
    { name: 'product', type: 'relationship', relationTo: slugs.products, required: true },
    {
      name: 'productName',
      type: 'text',
      required: true,
      admin: { description: 'At purchase time.' },
    },
    {
      name: 'productType',
      type: 'select',
      required: true,
      options: ['DIGITAL', 'PHYSICAL'],
    },
    { name: 'userEmail', type: 'email', required: true },
    { name: 'tokenAddress', type: 'text', admin: { description: 'Ordinal address or paymail.' } },
    {
      name: 'priceAtPurchaseUSD',
      type: 'number',
      required: true,
      admin: { description: 'Price paid, in EUR (the field keeps its historical name).' },
    },
    {
      name: 'bsvUsdRateAtPurchase',
      type: 'number',
      required: true,
      admin: { description: 'EUR per BSV at checkout (the field keeps its historical name).' },
    },
    { name: 'amountSatoshiExpected', type: 'number', required: true, min: 1 },
    { name: 'amountSatoshiReceived', type: 'number', defaultValue: 0, min: 0 },
    { name: 'paymentAddress', type: 'text', required: true, unique: true, index: true },
    { name: 'addressIndex', type: 'number', required: true, unique: true },
    { name: 'gatewayExpiresAt', type: 'date', required: true, index: true },
    { name: 'paymentTxid', type: 'text', admin: { description: 'The latest payment seen.' } },
    {
      name: 'flags',
      type: 'group',
      admin: { description: 'Exceptions the owner settles by hand.' },
      fields: [
        { name: 'paidLate', type: 'checkbox', defaultValue: false },
        { name: 'paidPartial', type: 'checkbox', defaultValue: false },
        { name: 'paidOver', type: 'checkbox', defaultValue: false },
      ],
    },
    { name: 'payments', type: 'join', collection: slugs.payments, on: 'order' },
    { name: 'downloadToken', type: 'relationship', relationTo: slugs.downloadTokens },
    { name: 'lastCheckedAt', type: 'date', admin: { readOnly: true } },
    { name: 'paidAt', type: 'date' },
    { name: 'fulfilledAt', type: 'date' },
    {
      name: 'stockReleasedAt',
      type: 'date',
      admin: {
        description:
          'Set while the order holds no copy: until checkout has reserved one, and once expiry returns it.',
      },
    },
    { name: 'fulfillmentError', type: 'text' },
    {
      type: 'collapsible',
      label: 'Shipping',
      fields: [
        { name: 'shippingName', type: 'text' },
        { name: 'shippingAddressLine1', type: 'text' },
        { name: 'shippingAddressLine2', type: 'text' },
        { name: 'shippingCity', type: 'text' },
        { name: 'shippingStateProvince', type: 'text' },
        { name: 'shippingPostalCode', type: 'text' },
        { name: 'shippingCountry', type: 'text' },
        { name: 'shippingPhone', type: 'text' },
        { name: 'shippingTrackingNumber', type: 'text' },
        { name: 'shippedAt', type: 'date' },
      ],
    },
  ],
  timestamps: true,
}
