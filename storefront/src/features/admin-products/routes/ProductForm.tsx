import { productInputSchema } from '@shop/domain'
import type { z } from 'zod'
import { useEffect, useMemo, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { toast } from 'react-toastify'
import useSWR, { useSWRConfig } from 'swr'

import { ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { showServerErrors, useZodForm } from '@/lib/admin/form'
import type { AdminProduct } from '../api/products'
import { createProduct, getAdminProduct, updateProduct } from '../api/products'
import { CoverThumb } from '../components/CoverThumb'
import { FormError, FormField, InputField } from '@/components/admin/FormField'
import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'
import { ADMIN_PRODUCTS_KEY } from './Products'

/** The form's values as typed, validated by the API's own schema (domain's productInputSchema). */
type Values = z.input<typeof productInputSchema> & {
  type: 'DIGITAL' | 'PHYSICAL'
  shippingCostEUR: string
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

/** A sum in euros as the API takes it: at most two decimals, never negative. */
const EUROS = {
  type: 'number',
  inputMode: 'decimal',
  step: '0.01',
  min: '0',
  required: true,
} as const

/** A number of copies. */
const COPIES = {
  type: 'number',
  inputMode: 'numeric',
  step: '1',
  min: '0',
  required: true,
} as const

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
  const form = useZodForm(productInputSchema, {
    defaultValues: product ? valuesOf(product) : NEW_PRODUCT,
  })
  const { errors, isSubmitting } = form.formState
  const errorOf = (field: string) =>
    (errors as Record<string, { message?: string } | undefined>)[field]?.message
  const type = form.watch('type')
  const [cover, setCover] = useState<File | null>(null)
  const [digital, setDigital] = useState<File | null>(null)
  const [generalError, setGeneralError] = useState<string | null>(null)
  const coverPreview = useMemo(() => (cover ? URL.createObjectURL(cover) : null), [cover])
  useEffect(
    () => () => (coverPreview ? URL.revokeObjectURL(coverPreview) : undefined),
    [coverPreview],
  )
  const [openedAt] = useState(() => Date.now())
  // The stock the fields were filled with (a background refresh of `product` does not change it).
  const [loadedStock] = useState(() => product?.currentStock)

  const onSubmit = async (values: z.input<typeof productInputSchema>) => {
    setGeneralError(null)
    const body = new FormData()
    body.append('name', values.name ?? '')
    body.append('type', values.type ?? '')
    body.append('priceEUR', values.priceEUR ?? '')
    if (values.type === 'PHYSICAL') body.append('shippingCostEUR', values.shippingCostEUR ?? '0')
    body.append('totalStock', values.totalStock ?? '')
    body.append('currentStock', values.currentStock ?? '')
    // The server applies the change relative to this, keeping copies ordered meanwhile.
    if (loadedStock !== undefined) body.append('currentStockLoaded', String(loadedStock))
    body.append('shortDescription', values.shortDescription ?? '')
    body.append('isAvailable', values.isAvailable === true ? 'true' : 'false')
    if (cover) body.append('coverImageFile', cover)
    if (digital && values.type === 'DIGITAL') body.append('digitalFile', digital)
    try {
      if (product) {
        await updateProduct(String(product.id), body)
        toast.success('Product updated successfully!')
      } else {
        await createProduct(body)
        toast.success('Product created successfully!')
      }
      await mutate(ADMIN_PRODUCTS_KEY)
      navigate(paths.admin.products)
    } catch (failure) {
      const first = showServerErrors(form, failure)
      const fallback = product ? 'Failed to update product.' : 'Failed to create product.'
      const message = failure instanceof Error && failure.message ? failure.message : fallback
      setGeneralError(first !== null ? 'Please correct the errors below.' : message)
      toast.error(message)
    }
  }

  return (
    <section className="admin-page">
      <AdminPageHeader
        title={product ? `Edit: ${product.name}` : 'New product'}
        back={{ to: paths.admin.products, label: 'Products' }}
      />

      <form
        className="card admin-panel admin-form"
        onSubmit={form.handleSubmit(onSubmit)}
        onChange={() => setGeneralError(null)}
        encType="multipart/form-data"
        noValidate
      >
        <FormError message={generalError} />

        <InputField form={form} name="name" label="Name" required />

        <div className="admin-form__row">
          <FormField id="type" label="Type" error={errorOf('type')}>
            {(control) => (
              <select {...control} {...form.register('type')} required>
                <option value="DIGITAL">Digital</option>
                <option value="PHYSICAL">Physical</option>
              </select>
            )}
          </FormField>
          <InputField form={form} name="priceEUR" {...EUROS} label="Price (EUR)" />
        </div>

        {type === 'PHYSICAL' ? (
          <div className="admin-form__row">
            <InputField
              form={form}
              name="shippingCostEUR"
              {...EUROS}
              max="1000"
              label="Shipping cost (EUR)"
              hint="Added to the price at checkout. 0 means shipping is included in the price."
            />
          </div>
        ) : null}

        <div className="admin-form__row">
          <InputField form={form} name="totalStock" {...COPIES} label="Total stock" />
          <InputField
            form={form}
            name="currentStock"
            {...COPIES}
            label="Current stock"
            hint="Copies available for sale now."
          />
        </div>

        <FormField
          id="shortDescription"
          label="Short description"
          error={errorOf('shortDescription')}
        >
          {(control) => <textarea {...control} {...form.register('shortDescription')} rows={4} />}
        </FormField>

        <FormField
          id="coverImageFile"
          label={`Cover image${product ? ' (optional: keeps the current one)' : ' (optional)'}`}
          error={errorOf('coverImageFile')}
        >
          {(control) => (
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
                {...control}
                name="coverImageFile"
                type="file"
                accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
                onChange={(event) => {
                  setCover(event.target.files?.[0] ?? null)
                  form.clearErrors('coverImageFile' as never)
                }}
              />
            </div>
          )}
        </FormField>

        {type === 'DIGITAL' ? (
          <FormField
            id="digitalFile"
            label="Digital file (.pdf or .epub)"
            error={errorOf('digitalFile')}
            hint={
              product?.pdfFilename ? (
                <>
                  Current file: <strong>{product.pdfFilename}</strong>
                </>
              ) : undefined
            }
          >
            {(control) => (
              <input
                {...control}
                name="digitalFile"
                type="file"
                accept=".pdf,.epub,application/pdf,application/epub+zip"
                onChange={(event) => {
                  setDigital(event.target.files?.[0] ?? null)
                  form.clearErrors('digitalFile' as never)
                }}
              />
            )}
          </FormField>
        ) : null}

        <InputField
          form={form}
          name="isAvailable"
          type="checkbox"
          label="Available in the store"
          hint="Unchecked hides the book from the public store."
          check
        />

        <div className="admin-form__actions">
          <Link to={paths.admin.products} className="button button--ghost">
            Cancel
          </Link>
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? 'Saving...' : product ? 'Save changes' : 'Create product'}
          </button>
        </div>
      </form>
    </section>
  )
}
