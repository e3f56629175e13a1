import type { CollectionConfig, Field } from 'payload'

import { ORDER_HISTORY_ACTIONS, ORDER_STATUSES, PRODUCT_TYPES } from '@shop/domain'

import { isAdmin } from '../../access/isAdmin'
import { nobody, nobodyField } from '../../access/nobody'
import { slugs } from '../slugs'
import { applyStatusChange } from './hooks/applyStatusChange'
import { assignOrderId } from './hooks/assignOrderId'
import { requireEmail } from './hooks/checkEmail'
import {
  normalizeCountry,
  requireListedCountry,
  requirePhoneNumber,
  trimPhone,
} from './hooks/checkShippingDetails'
import { enforceStatusTransition } from './hooks/enforceStatusTransition'
import { lockOrderRows } from './hooks/lockOrderRows'
import { NEW_ORDER_DEFAULTS } from './newOrder'
import { queueCreatedEmail } from './hooks/queueCreatedEmail'
import { recordHistory } from './hooks/recordHistory'

/**
 * What the payment engine and the owner's explicit actions change, never a raw field write:
 * read-only through /cms and /cms/api for every role (the shop's own code uses the Local API,
 * where the status still meets the transition table).
 */
const ENGINE_FIELDS = new Set([
  'id',
  'status',
  'product',
  'productName',
  'productType',
  'priceAtPurchaseUSD',
  'shippingCostEUR',
  'bsvUsdRateAtPurchase',
  'amountSatoshiExpected',
  'amountSatoshiReceived',
  'paymentAddress',
  'addressIndex',
  'gatewayExpiresAt',
  'paymentTxid',
  'flags',
  'downloadToken',
  'lastCheckedAt',
  'paidAt',
  'fulfilledAt',
  'stockReleasedAt',
  'fulfillmentError',
  'shippedAt',
  'settledAt',
  'recheckRequestedAt',
  'attention',
  'attentionSince',
  'history',
])

function engineOnly(fields: Field[]): Field[] {
  return fields.map((field) => {
    if (field.type === 'collapsible') return { ...field, fields: engineOnly(field.fields) }
    if (!('name' in field) || !ENGINE_FIELDS.has(field.name) || field.type === 'join') return field
    return {
      ...field,
      access: { create: nobodyField, update: nobodyField },
      admin: { ...field.admin, readOnly: true },
    } as Field
  })
}

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
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: {
    group: 'Shop',
    useAsTitle: 'id',
    defaultColumns: ['id', 'productName', 'status', 'userEmail', 'createdAt'],
  },
  // Orders come from checkout only; they are never deleted.
  access: { read: isAdmin, create: nobody, update: isAdmin, delete: nobody },
  // What the payment worker and its jobs read is the open work, never every order: the watch
  // list's settled orders still in the late-watch window (status, then the expiry's range), and
  // paid orders not delivered yet (queueMissingFulfilments, the dashboard's backlog), where
  // status alone would read every delivered PDF (they stay PAID). PostgreSQL answers a sort by
  // createdAt alone from orders_created_at_idx, walking every order; sorted by fulfilledAt then
  // createdAt it reads this index in order. cms/test/db/query-plans.test.ts checks each query.
  indexes: [
    { fields: ['status', 'gatewayExpiresAt'] },
    { fields: ['status', 'fulfilledAt', 'createdAt'] },
  ],
  hooks: {
    // Before Payload reads the order it updates: a change committed meanwhile is kept.
    beforeOperation: [lockOrderRows],
    beforeValidate: [assignOrderId],
    beforeChange: [enforceStatusTransition, recordHistory],
    // What a status change causes; the buyer's "order created" e-mail for an order created
    // through Payload (checkout on SQL engines queues it in its own write).
    afterChange: [applyStatusChange, queueCreatedEmail],
  },
  fields: engineOnly([
    { name: 'id', type: 'text', required: true, admin: { readOnly: true } },
    {
      name: 'status',
      type: 'select',
      required: true,
      index: true,
      defaultValue: NEW_ORDER_DEFAULTS.status,
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
      options: [...PRODUCT_TYPES],
    },
    { name: 'userEmail', type: 'email', required: true, index: true, validate: requireEmail },
    {
      // A keyed hash of the client's address (never the address): counts its unpaid orders.
      name: 'clientKey',
      type: 'text',
      index: true,
      admin: { hidden: true },
      access: { read: nobodyField, create: nobodyField, update: nobodyField },
    },
    { name: 'tokenAddress', type: 'text', admin: { description: 'Ordinal address or paymail.' } },
    {
      name: 'priceAtPurchaseUSD',
      type: 'number',
      required: true,
      admin: {
        description: 'Price paid, in EUR, shipping included (the field keeps its historical name).',
      },
    },
    {
      name: 'shippingCostEUR',
      label: 'Shipping cost (EUR)',
      type: 'number',
      admin: {
        description:
          "A printed book's shipping at checkout, in EUR, part of the price paid (0: included in the book's price).",
      },
    },
    {
      name: 'bsvUsdRateAtPurchase',
      type: 'number',
      required: true,
      admin: { description: 'EUR per BSV at checkout (the field keeps its historical name).' },
    },
    { name: 'amountSatoshiExpected', type: 'number', required: true, min: 1 },
    {
      name: 'amountSatoshiReceived',
      type: 'number',
      defaultValue: NEW_ORDER_DEFAULTS.amountSatoshiReceived,
      min: 0,
    },
    { name: 'paymentAddress', type: 'text', required: true, unique: true, index: true },
    { name: 'addressIndex', type: 'number', required: true, unique: true },
    { name: 'gatewayExpiresAt', type: 'date', required: true, index: true },
    { name: 'paymentTxid', type: 'text', admin: { description: 'The latest payment seen.' } },
    {
      name: 'flags',
      type: 'group',
      admin: { description: 'Exceptions the owner settles by hand.' },
      fields: [
        {
          name: 'paidLate',
          type: 'checkbox',
          defaultValue: NEW_ORDER_DEFAULTS.flags.paidLate,
        },
        {
          name: 'paidPartial',
          type: 'checkbox',
          defaultValue: NEW_ORDER_DEFAULTS.flags.paidPartial,
        },
        {
          name: 'paidOver',
          type: 'checkbox',
          defaultValue: NEW_ORDER_DEFAULTS.flags.paidOver,
        },
        {
          name: 'paidInvalid',
          type: 'checkbox',
          defaultValue: NEW_ORDER_DEFAULTS.flags.paidInvalid,
          admin: { description: 'A payment was double-spent or dropped after it was seen.' },
        },
      ],
    },
    {
      name: 'settledAt',
      type: 'date',
      admin: {
        description:
          "When the owner last settled this order's exceptions; cleared when new money or an invalid payment arrives.",
      },
    },
    {
      name: 'recheckRequestedAt',
      type: 'date',
      index: true,
      admin: { description: 'The owner asked the payment worker to look at the chain now.' },
    },
    {
      // Who changed what, when and why: every status change and every owner action.
      name: 'history',
      type: 'array',
      fields: [
        { name: 'at', type: 'date', required: true },
        { name: 'by', type: 'text', required: true },
        {
          name: 'action',
          type: 'select',
          required: true,
          options: ORDER_HISTORY_ACTIONS.map((value) => ({ label: value, value })),
        },
        {
          name: 'fromStatus',
          type: 'select',
          options: ORDER_STATUSES.map((value) => ({ label: value, value })),
        },
        {
          name: 'toStatus',
          type: 'select',
          options: ORDER_STATUSES.map((value) => ({ label: value, value })),
        },
        { name: 'note', type: 'textarea' },
        { name: 'txid', type: 'text' },
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
      // Set by the payment worker when judging this order failed, cleared by its next success
      // (operations/orders/orderAttention.ts); the owner sees it on the order and in the list.
      name: 'attention',
      type: 'text',
      admin: {
        description: 'Why the payment worker could not process this order, if it could not.',
      },
    },
    {
      name: 'attentionSince',
      type: 'date',
      index: true,
      admin: { description: 'Since when the order has needed attention.' },
    },
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
        {
          name: 'shippingCountry',
          type: 'text',
          hooks: { beforeValidate: [normalizeCountry] },
          validate: requireListedCountry,
        },
        {
          name: 'shippingPhone',
          type: 'text',
          hooks: { beforeValidate: [trimPhone] },
          validate: requirePhoneNumber,
        },
        { name: 'shippingTrackingNumber', type: 'text' },
        { name: 'shippedAt', type: 'date' },
      ],
    },
  ]),
  timestamps: true,
}
