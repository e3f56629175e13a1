import { describe, expect, it } from 'vitest'

import { correctTrackingSchema, orderActionSchema, productInputSchema } from './admin-inputs'

describe('the admin forms\u2019 schemas (shared by the screens and the API)', () => {
  it('reads a product form typed in the screen (a checkbox) and sent as multipart (a word)', () => {
    const typed = {
      name: ' A book ',
      type: 'DIGITAL',
      priceEUR: '9.90',
      totalStock: '3',
      currentStock: '2',
    }
    expect(productInputSchema.parse({ ...typed, isAvailable: true })).toMatchObject({
      name: 'A book',
      priceEUR: 9.9,
      currentStock: 2,
      isAvailable: true,
    })
    expect(productInputSchema.parse({ ...typed, isAvailable: 'false' }).isAvailable).toBe(false)
    expect(productInputSchema.safeParse({ ...typed, isAvailable: 'maybe' }).success).toBe(false)
  })

  it('asks why for every settling action, and a real transaction id for a refund', () => {
    expect(
      orderActionSchema.safeParse({ action: 'settle', note: '  ' }).error?.issues[0],
    ).toMatchObject({
      path: ['note'],
      message: 'Say why in the note.',
    })
    expect(
      orderActionSchema.safeParse({ action: 'refund', note: 'sent back', txid: 'abc' }).error
        ?.issues[0],
    ).toMatchObject({ path: ['txid'] })
    expect(
      orderActionSchema.parse({ action: 'refund', note: 'sent back', txid: 'AB'.repeat(32) }).txid,
    ).toBe('ab'.repeat(32))
  })

  it('refuses an empty tracking number and a long reason', () => {
    expect(
      correctTrackingSchema.safeParse({ trackingNumber: ' ', note: '' }).error?.issues[0]?.message,
    ).toBe('Tracking number cannot be empty.')
    expect(
      correctTrackingSchema.safeParse({ trackingNumber: 'RR1', note: 'x'.repeat(501) }).success,
    ).toBe(false)
  })
})
