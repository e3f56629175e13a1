import type { AdminSales, AdminSettings, AdminStats } from '@shop/domain'

import { adminRequest, withNetworkFallback } from '@/lib/admin/admin-client'

export type {
  AdminHealth,
  AdminSales,
  AdminSettings,
  AdminStats,
  SalesBucket,
  SettlingBacklog,
} from '@shop/domain'

export const getStats = () =>
  withNetworkFallback(() =>
    adminRequest<AdminStats>('GET', '/stats', 'Failed to load the shop figures.'),
  )

export const getSales = () =>
  withNetworkFallback(() => adminRequest<AdminSales>('GET', '/sales', 'Failed to load the sales.'))

export const getSettings = () =>
  withNetworkFallback(() =>
    adminRequest<AdminSettings>('GET', '/settings', 'Failed to load the settings.'),
  )
