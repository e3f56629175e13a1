import { api } from '@/lib/api-client'

export type ShopConfig = { testMode: boolean; explorerTxUrl: string; network: string }

export function getShopConfig(): Promise<ShopConfig> {
  return api.get<ShopConfig>('/api/shop-config', 'Failed to fetch shop configuration.')
}
