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
import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import type { AdminColumn } from '@/components/admin/AdminTable'
import { AdminTable } from '@/components/admin/AdminTable'
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

  const columns: AdminColumn<AdminProduct>[] = [
    {
      label: 'Cover',
      cell: (product) => (
        <CoverThumb url={product.coverImageUrl} name={product.name} version={loadedAt} />
      ),
    },
    {
      label: 'Name',
      className: 'admin-table__name',
      cell: (product) => (
        <div>
          {product.name}
          {product.pdfFilename ? (
            <span className="admin-table__sub">{product.pdfFilename}</span>
          ) : null}
        </div>
      ),
    },
    { label: 'Type', cell: (product) => (product.type === 'PHYSICAL' ? 'Physical' : 'Digital') },
    { label: 'Price', numeric: true, cell: (product) => `€${formatEUR(product.priceEUR)}` },
    {
      label: 'Stock',
      numeric: true,
      cell: (product) => `${product.currentStock} / ${product.totalStock}`,
    },
    {
      label: 'Status',
      cell: (product) => {
        const status = productStatus(product)
        return <span className={`admin-badge admin-badge--${statusClass[status]}`}>{status}</span>
      },
    },
    {
      label: 'Actions',
      actions: true,
      cell: (product) =>
        product.deletedAt ? (
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
        ),
    },
  ]

  return (
    <section className="admin-page">
      <AdminPageHeader
        title="Products"
        actions={
          <Link to={paths.admin.newProduct} className="button button--accent">
            + New product
          </Link>
        }
      >
        <p className="muted">Deleted books stay here, dimmed, until you restore them.</p>
      </AdminPageHeader>

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
        <AdminTable
          columns={columns}
          rows={products}
          rowKey={(product) => product.id}
          rowAttributes={(product) => ({
            className: product.deletedAt ? 'admin-row--deleted' : undefined,
            'data-product-id': product.id,
          })}
        />
      )}
    </section>
  )
}
