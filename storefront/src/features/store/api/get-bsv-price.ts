import { api } from '@/lib/api-client'

export const bsvPriceKey = '/api/bsv-price'

/** GET /api/bsv-price: EUR per BSV. Anything but a positive finite number is an error. */
export async function getBsvPrice(): Promise<number> {
  const body = await api.get<unknown>(bsvPriceKey, 'Failed to fetch BSV price.')
  const rate = body && typeof body === 'object' ? (body as { rate?: unknown }).rate : undefined
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
    throw new Error('Invalid price data format received from API.')
  }
  return rate
}
