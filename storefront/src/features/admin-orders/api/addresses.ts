import type { AdminAddressPage } from '@shop/domain'

import { adminRequest } from '@/lib/admin/admin-client'

export type { AdminAddress, AdminAddressPage } from '@shop/domain'

export const getAddresses = (page: number) =>
  adminRequest<AdminAddressPage>('GET', `/addresses?page=${page}`, 'Failed to fetch the addresses.')

/** The CSV of every address given out (a plain link: the browser downloads it with the session). */
export const ADDRESSES_CSV_URL = '/api/admin/addresses/export.csv'
