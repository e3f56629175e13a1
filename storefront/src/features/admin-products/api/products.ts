import type { AdminProduct } from '@shop/domain'

import { adminRequest, withNetworkFallback } from '@/lib/admin/admin-client'

export async function getAdminProducts(): Promise<AdminProduct[]> {
  const products = await withNetworkFallback(() =>
    adminRequest<unknown>('GET', '/products', 'Failed to fetch products for admin.'),
  )
  if (!Array.isArray(products)) throw new Error('Invalid data from server.')
  return products as AdminProduct[]
}

export const getAdminProduct = (id: string) =>
  withNetworkFallback(() =>
    adminRequest<AdminProduct>(
      'GET',
      `/products/${encodeURIComponent(id)}`,
      'Failed to load product data.',
    ),
  )

export const createProduct = (form: FormData) =>
  withNetworkFallback(() =>
    adminRequest<AdminProduct>('POST', '/products', 'Failed to create product.', form),
  )

export const updateProduct = (id: string, form: FormData) =>
  withNetworkFallback(() =>
    adminRequest<AdminProduct>(
      'PUT',
      `/products/${encodeURIComponent(id)}`,
      'Failed to update product.',
      form,
    ),
  )

export const deleteProduct = (id: number | string) =>
  withNetworkFallback(() =>
    adminRequest<AdminProduct>('DELETE', `/products/${id}`, `Failed to delete product ${id}.`),
  )

export const restoreProduct = (id: number | string) =>
  withNetworkFallback(() =>
    adminRequest<AdminProduct>(
      'POST',
      `/products/${id}/restore`,
      `Failed to restore product ${id}.`,
    ),
  )

/** Displayed status (spec section 4). */
export function productStatus(
  product: AdminProduct,
): 'Deleted' | 'Available' | 'Out of Stock' | 'Unavailable' {
  if (product.deletedAt) return 'Deleted'
  if (product.isAvailable && product.currentStock > 0) return 'Available'
  if (product.currentStock <= 0) return 'Out of Stock'
  return 'Unavailable'
}

/** Deleted rows last, the others newest first by createdAt (spec section 2). */
export function sortForAdmin(products: AdminProduct[]): AdminProduct[] {
  return [...products].sort((a, b) => {
    if (Boolean(a.deletedAt) !== Boolean(b.deletedAt)) return a.deletedAt ? 1 : -1
    return b.createdAt.localeCompare(a.createdAt)
  })
}

export type { AdminProduct } from '@shop/domain'
