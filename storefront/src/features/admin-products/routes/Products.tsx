import { useMemo, useState } from 'react'
import { Link } from 'react-router-dom'
import { toast } from 'react-toastify'
import useSWR from 'swr'
import { formatEUR } from '@shop/domain'

import { EmptyState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import type { AdminProduct } from '../api/products'
import {
  deleteProduct,
  getAdminProducts,
  productStatus,
  restoreProduct,
  sortForAdmin,
} from '../api/products'
import { CoverThumb } from '../components/CoverThumb'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'

export const ADMIN_PRODUCTS_KEY = 'admin/products'

const statusClass: Record<ReturnType<typeof productStatus>, string> = {
  Deleted: 'neutral',
  Available: 'success',
  'Out of Stock': 'error',
  Unavailable: 'warning',
}

export function ProductsRoute() {
  useAdminTitle('Products')
  const { data, error, isLoading, mutate } = useSWR(ADMIN_PRODUCTS_KEY, getAdminProducts)
  useSignOutOn401(error)
  const [busyId, setBusyId] = useState<number | string | null>(null)
  // Covers change under the same URL when replaced: the time of this load busts the cache.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const loadedAt = useMemo(() => Date.now(), [data])
  const products = useMemo(() => (data ? sortForAdmin(data) : []), [data])

  const act = async (product: AdminProduct, action: 'delete' | 'restore') => {
    const question =
      action === 'delete'
        ? `Delete "${product.name}"? It will be hidden from the store (you can restore it later).`
        : `Restore "${product.name}"?`
    if (!window.confirm(question)) return
    setBusyId(product.id)
    try {
      const updated =
        action === 'delete' ? await deleteProduct(product.id) : await restoreProduct(product.id)
      await mutate((current) => current?.map((p) => (p.id === updated.id ? updated : p)), {
        revalidate: true,
      })
      toast.success(
        action === 'delete'
          ? `Product "${product.name}" soft-deleted!`
          : `Product "${product.name}" restored!`,
      )
    } catch (failure) {
      const message =
        failure instanceof Error ? failure.message : `Failed to ${action} product ${product.id}.`
      toast.error(`Failed to ${action} product: ${message}`)
    } finally {
      setBusyId(null)
    }
  }

  return (
    <section className="admin-page">
      <header className="admin-page__header">
        <div>
          <h1>Products</h1>
          <p className="muted">Deleted books stay here, dimmed, until you restore them.</p>
        </div>
        <Link to={paths.admin.newProduct} className="button button--accent">
          + New product
        </Link>
      </header>

      {isLoading ? (
        <LoadingState label="Loading products…" />
      ) : error ? (
        <div className="status-box status-box--error" role="alert">
          <p className="status-box__message">Failed to fetch products.</p>
          {error instanceof Error && error.message !== 'Failed to fetch products.' ? (
            <p className="muted">{error.message}</p>
          ) : null}
          <button type="button" className="button button--primary" onClick={() => void mutate()}>
            Retry
          </button>
        </div>
      ) : products.length === 0 ? (
        <EmptyState>No products found</EmptyState>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Cover</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col" className="admin-num">
                  Price
                </th>
                <th scope="col" className="admin-num">
                  Stock
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {products.map((product) => {
                const status = productStatus(product)
                return (
                  <tr
                    key={product.id}
                    className={product.deletedAt ? 'admin-row--deleted' : undefined}
                    data-product-id={product.id}
                  >
                    <td data-label="Cover">
                      <CoverThumb
                        url={product.coverImageUrl}
                        name={product.name}
                        version={loadedAt}
                      />
                    </td>
                    <td data-label="Name" className="admin-table__name">
                      <div>
                        {product.name}
                        {product.pdfFilename ? (
                          <span className="admin-table__sub">{product.pdfFilename}</span>
                        ) : null}
                      </div>
                    </td>
                    <td data-label="Type">
                      {product.type === 'PHYSICAL' ? 'Physical' : 'Digital'}
                    </td>
                    <td data-label="Price" className="admin-num">
                      €{formatEUR(product.priceEUR)}
                    </td>
                    <td data-label="Stock" className="admin-num">
                      {product.currentStock} / {product.totalStock}
                    </td>
                    <td data-label="Status">
                      <span className={`admin-badge admin-badge--${statusClass[status]}`}>
                        {status}
                      </span>
                    </td>
                    <td className="admin-table__actions">
                      {product.deletedAt ? (
                        <button
                          type="button"
                          className="button button--ghost admin-button--small"
                          onClick={() => void act(product, 'restore')}
                          disabled={busyId === product.id}
                          aria-label={`Restore ${product.name}`}
                        >
                          Restore
                        </button>
                      ) : (
                        <>
                          <Link
                            to={paths.admin.editProduct(product.id)}
                            className="button button--ghost admin-button--small"
                            aria-label={`Edit ${product.name}`}
                          >
                            Edit
                          </Link>
                          <button
                            type="button"
                            className="button admin-button--danger admin-button--small"
                            onClick={() => void act(product, 'delete')}
                            disabled={busyId === product.id}
                            aria-label={`Delete ${product.name}`}
                          >
                            Delete
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
