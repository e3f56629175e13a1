import { api, ApiError } from '@/lib/api-client'

type BsvPriceResponse = { rate?: unknown }

/** GET /api/bsv-price: EUR per BSV. Anything but a positive number is an error (spec section 7). */
export async function getBsvPrice(): Promise<number> {
  const data = await api.get<BsvPriceResponse | null>(
    '/api/bsv-price',
    'Failed to fetch BSV price.',
  )
  const rate = data?.rate
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
    throw new ApiError('Invalid price data format received from API.', null, data)
  }
  return rate
}
