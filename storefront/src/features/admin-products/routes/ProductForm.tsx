import { useEffect, useMemo, useState } from 'react'
import type { ChangeEvent, FormEvent } from 'react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { toast } from 'react-toastify'
import useSWR, { useSWRConfig } from 'swr'

import { ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { fieldErrorsOf } from '@/lib/admin/admin-client'
import type { AdminProduct } from '../api/products'
import { createProduct, getAdminProduct, updateProduct } from '../api/products'
import { CoverThumb } from '../components/CoverThumb'
import { FieldError } from '@/components/admin/FieldError'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'
import { ADMIN_PRODUCTS_KEY } from './Products'

type Values = {
  name: string
  type: 'DIGITAL' | 'PHYSICAL'
  priceEUR: string
  shippingCostEUR: string
  totalStock: string
  currentStock: string
  shortDescription: string
  isAvailable: boolean
}

/** A new product: Digital and available (spec section 5). */
const NEW_PRODUCT: Values = {
  name: '',
  type: 'DIGITAL',
  priceEUR: '',
  shippingCostEUR: '0',
  totalStock: '',
  currentStock: '',
  shortDescription: '',
  isAvailable: true,
}

const valuesOf = (product: AdminProduct): Values => ({
  name: product.name,
  type: product.type,
  priceEUR: String(product.priceEUR),
  shippingCostEUR: String(product.shippingCostEUR ?? 0),
  totalStock: String(product.totalStock),
  currentStock: String(product.currentStock),
  shortDescription: product.shortDescription,
  isAvailable: product.isAvailable,
})

export function ProductFormRoute() {
  const { productId } = useParams()
  const editing = productId !== undefined
  useAdminTitle(editing ? 'Edit product' : 'New product')
  const product = useSWR(
    editing ? ['admin/product', productId] : null,
    () => getAdminProduct(productId!),
    {
      revalidateOnMount: true,
      dedupingInterval: 0,
    },
  )
  useSignOutOn401(product.error)

  if (editing && product.isLoading) return <LoadingState label="Loading product…" />
  if (editing && (product.error || !product.data)) {
    return (
      <section className="admin-page">
        <ErrorState message="Could not load product.">
          <p className="muted">
            {product.error instanceof Error
              ? product.error.message
              : 'Failed to load product data.'}
          </p>
          <Link to={paths.admin.products}>Back to products</Link>
        </ErrorState>
      </section>
    )
  }
  return <ProductForm key={productId ?? 'new'} product={product.data ?? null} />
}

function ProductForm({ product }: { product: AdminProduct | null }) {
  const navigate = useNavigate()
  const { mutate } = useSWRConfig()
  const [values, setValues] = useState<Values>(product ? valuesOf(product) : NEW_PRODUCT)
  const [cover, setCover] = useState<File | null>(null)
  const [digital, setDigital] = useState<File | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [generalError, setGeneralError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const coverPreview = useMemo(() => (cover ? URL.createObjectURL(cover) : null), [cover])
  useEffect(
    () => () => (coverPreview ? URL.revokeObjectURL(coverPreview) : undefined),
    [coverPreview],
  )
  const [openedAt] = useState(() => Date.now())
  // The stock the fields were filled with (a background refresh of `product` does not change it).
  const [loadedStock] = useState(() => product?.currentStock)

  const clearError = (field: string) => {
    setGeneralError(null)
    setErrors((current) => {
      if (!current[field]) return current
      const next = { ...current }
      delete next[field]
      return next
    })
  }

  const set =
    (field: keyof Values) =>
    (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
      const target = event.target
      const value =
        target instanceof HTMLInputElement && target.type === 'checkbox'
          ? target.checked
          : target.value
      setValues((current) => ({ ...current, [field]: value }))
      clearError(field)
    }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setGeneralError(null)
    const form = new FormData()
    form.append('name', values.name)
    form.append('type', values.type)
    form.append('priceEUR', values.priceEUR)
    if (values.type === 'PHYSICAL') form.append('shippingCostEUR', values.shippingCostEUR)
    form.append('totalStock', values.totalStock)
    form.append('currentStock', values.currentStock)
    // The server applies the change relative to this, keeping copies ordered meanwhile.
    if (loadedStock !== undefined) form.append('currentStockLoaded', String(loadedStock))
    form.append('shortDescription', values.shortDescription)
    form.append('isAvailable', values.isAvailable ? 'true' : 'false')
    if (cover) form.append('coverImageFile', cover)
    if (digital && values.type === 'DIGITAL') form.append('digitalFile', digital)
    try {
      if (product) {
        await updateProduct(String(product.id), form)
        toast.success('Product updated successfully!')
      } else {
        await createProduct(form)
        toast.success('Product created successfully!')
      }
      await mutate(ADMIN_PRODUCTS_KEY)
      navigate(paths.admin.products)
    } catch (failure) {
      const byField = fieldErrorsOf(failure)
      setErrors(byField)
      const fallback = product ? 'Failed to update product.' : 'Failed to create product.'
      const message = failure instanceof Error && failure.message ? failure.message : fallback
      setGeneralError(
        Object.keys(byField).length > 0 ? 'Please correct the errors below.' : message,
      )
      toast.error(message)
      setBusy(false)
    }
  }

  const describedBy = (field: string) => (errors[field] ? `${field}-error` : undefined)

  return (
    <section className="admin-page">
      <header className="admin-page__header">
        <div>
          <p className="admin-breadcrumb">
            <Link to={paths.admin.products}>Products</Link> /
          </p>
          <h1>{product ? `Edit: ${product.name}` : 'New product'}</h1>
        </div>
      </header>

      <form
        className="card admin-panel admin-form"
        onSubmit={onSubmit}
        encType="multipart/form-data"
      >
        {generalError ? (
          <div className="admin-alert admin-alert--error" role="alert">
            {generalError}
          </div>
        ) : null}

        <div className="admin-field">
          <label htmlFor="name">Name</label>
          <input
            id="name"
            name="name"
            required
            value={values.name}
            onChange={set('name')}
            aria-invalid={Boolean(errors.name)}
            aria-describedby={describedBy('name')}
          />
          <FieldError id="name-error" message={errors.name} />
        </div>

        <div className="admin-form__row">
          <div className="admin-field">
            <label htmlFor="type">Type</label>
            <select
              id="type"
              name="type"
              required
              value={values.type}
              onChange={set('type')}
              aria-invalid={Boolean(errors.type)}
              aria-describedby={describedBy('type')}
            >
              <option value="DIGITAL">Digital</option>
              <option value="PHYSICAL">Physical</option>
            </select>
            <FieldError id="type-error" message={errors.type} />
          </div>
          <div className="admin-field">
            <label htmlFor="priceEUR">Price (EUR)</label>
            <input
              id="priceEUR"
              name="priceEUR"
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0"
              required
              value={values.priceEUR}
              onChange={set('priceEUR')}
              aria-invalid={Boolean(errors.priceEUR)}
              aria-describedby={describedBy('priceEUR')}
            />
            <FieldError id="priceEUR-error" message={errors.priceEUR} />
          </div>
        </div>

        {values.type === 'PHYSICAL' ? (
          <div className="admin-form__row">
            <div className="admin-field">
              <label htmlFor="shippingCostEUR">Shipping cost (EUR)</label>
              <input
                id="shippingCostEUR"
                name="shippingCostEUR"
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                max="1000"
                required
                value={values.shippingCostEUR}
                onChange={set('shippingCostEUR')}
                aria-invalid={Boolean(errors.shippingCostEUR)}
                aria-describedby={describedBy('shippingCostEUR') ?? 'shippingCostEUR-hint'}
              />
              <p className="admin-field__hint" id="shippingCostEUR-hint">
                Added to the price at checkout. 0 means shipping is included in the price.
              </p>
              <FieldError id="shippingCostEUR-error" message={errors.shippingCostEUR} />
            </div>
          </div>
        ) : null}

        <div className="admin-form__row">
          <div className="admin-field">
            <label htmlFor="totalStock">Total stock</label>
            <input
              id="totalStock"
              name="totalStock"
              type="number"
              inputMode="numeric"
              step="1"
              min="0"
              required
              value={values.totalStock}
              onChange={set('totalStock')}
              aria-invalid={Boolean(errors.totalStock)}
              aria-describedby={describedBy('totalStock')}
            />
            <FieldError id="totalStock-error" message={errors.totalStock} />
          </div>
          <div className="admin-field">
            <label htmlFor="currentStock">Current stock</label>
            <input
              id="currentStock"
              name="currentStock"
              type="number"
              inputMode="numeric"
              step="1"
              min="0"
              required
              value={values.currentStock}
              onChange={set('currentStock')}
              aria-invalid={Boolean(errors.currentStock)}
              aria-describedby={describedBy('currentStock') ?? 'currentStock-hint'}
            />
            <p className="admin-field__hint" id="currentStock-hint">
              Copies available for sale now.
            </p>
            <FieldError id="currentStock-error" message={errors.currentStock} />
          </div>
        </div>

        <div className="admin-field">
          <label htmlFor="shortDescription">Short description</label>
          <textarea
            id="shortDescription"
            name="shortDescription"
            rows={4}
            value={values.shortDescription}
            onChange={set('shortDescription')}
            aria-invalid={Boolean(errors.shortDescription)}
            aria-describedby={describedBy('shortDescription')}
          />
          <FieldError id="shortDescription-error" message={errors.shortDescription} />
        </div>

        <div className="admin-field">
          <label htmlFor="coverImageFile">
            Cover image{product ? ' (optional: keeps the current one)' : ' (optional)'}
          </label>
          <div className="admin-file">
            {coverPreview ? (
              <img
                className="admin-thumb admin-thumb--large"
                src={coverPreview}
                alt="New cover preview"
                width={120}
                height={180}
              />
            ) : product?.coverImageUrl ? (
              <CoverThumb
                url={product.coverImageUrl}
                name={product.name}
                version={openedAt}
                size="large"
              />
            ) : null}
            <input
              id="coverImageFile"
              name="coverImageFile"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
              onChange={(event) => {
                setCover(event.target.files?.[0] ?? null)
                clearError('coverImageFile')
              }}
              aria-invalid={Boolean(errors.coverImageFile)}
              aria-describedby={describedBy('coverImageFile')}
            />
          </div>
          <FieldError id="coverImageFile-error" message={errors.coverImageFile} />
        </div>

        {values.type === 'DIGITAL' ? (
          <div className="admin-field">
            <label htmlFor="digitalFile">Digital file (.pdf or .epub)</label>
            {product?.pdfFilename ? (
              <p className="admin-field__hint">
                Current file: <strong>{product.pdfFilename}</strong>
              </p>
            ) : null}
            <input
              id="digitalFile"
              name="digitalFile"
              type="file"
              accept=".pdf,.epub,application/pdf,application/epub+zip"
              onChange={(event) => {
                setDigital(event.target.files?.[0] ?? null)
                clearError('digitalFile')
              }}
              aria-invalid={Boolean(errors.digitalFile)}
              aria-describedby={describedBy('digitalFile')}
            />
            <FieldError id="digitalFile-error" message={errors.digitalFile} />
          </div>
        ) : null}

        <div className="admin-field admin-field--check">
          <input
            id="isAvailable"
            name="isAvailable"
            type="checkbox"
            checked={values.isAvailable}
            onChange={set('isAvailable')}
          />
          <label htmlFor="isAvailable">Available in the store</label>
          <p className="admin-field__hint">Unchecked hides the book from the public store.</p>
        </div>

        <div className="admin-form__actions">
          <Link to={paths.admin.products} className="button button--ghost">
            Cancel
          </Link>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving...' : product ? 'Save changes' : 'Create product'}
          </button>
        </div>
      </form>
    </section>
  )
}
