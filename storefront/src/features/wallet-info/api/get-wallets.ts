import type { Wallet } from '@shop/domain'

import { api } from '@/lib/api-client'

export const walletsKey = '/api/content/wallets'

/** GET /api/content/wallets: the recommended wallets, edited in the CMS. */
export function getWallets(): Promise<Wallet[]> {
  return api.get<Wallet[]>(walletsKey, 'Failed to load page data.')
}
