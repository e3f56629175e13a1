import { correctTrackingSchema, shipOrderSchema } from '@shop/domain'
import type { CorrectTrackingInput } from '@shop/domain'
import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router-dom'
import { toast } from 'react-toastify'
import useSWR, { useSWRConfig } from 'swr'

import { ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'
import { ApiError } from '@/lib/api-client'

import type { AdminOrderDetail, AdminPayment } from '../api/orders'
import { correctTracking, getOrder, markShipped } from '../api/orders'
import { DownloadLinkAction } from '../components/DownloadLinkAction'
import { OrderHistory, OrderSettling } from '../components/OrderSettling'
import { OrderStatusBadge } from '../components/OrderStatusBadge'
import { PaymentConfirmation, PaymentEvidence } from '../components/PaymentEvidence'
import {
  bsv,
  dateTime,
  euro,
  EXPLORER_TX_URL,
  NOT_AVAILABLE,
  NOT_PROVIDED,
  ratePerCoin,
} from '@/lib/admin/format'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'
import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import type { AdminColumn } from '@/components/admin/AdminTable'
import { AdminTable } from '@/components/admin/AdminTable'
import { EmailText } from '@/components/admin/EmailText'
import { FormField } from '@/components/admin/FormField'
import { useZodForm } from '@/lib/admin/form'
import '../admin-orders.css'

const or = (value: string | null | undefined, fallback = NOT_PROVIDED) =>
  value && value.trim() ? value : fallback

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-dl__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

function TxLink({ txid }: { txid: string }) {
  return (
    <a
      href={`${EXPLORER_TX_URL}${txid}`}
      target="_blank"
      rel="noopener noreferrer"
      className="admin-mono admin-break"
    >
      {txid}
    </a>
  )
}

const PAYMENT_COLUMNS: AdminColumn<AdminPayment>[] = [
  {
    label: 'Transaction',
    cell: (payment) => (
      <div>
        <TxLink txid={payment.txid} />
        {payment.vout > 0 ? <span className="admin-table__sub">output {payment.vout}</span> : null}
      </div>
    ),
  },
  { label: 'Amount', numeric: true, cell: (payment) => bsv(payment.satoshis) },
  {
    label: 'Seen',
    cell: (payment) => (
      <div>
        {dateTime(payment.seenAt)}
        {payment.late ? (
          <span className="admin-badge admin-badge--warning admin-badge--inline">late</span>
        ) : null}
      </div>
    ),
  },
  { label: 'Confirmation', cell: (payment) => <PaymentConfirmation payment={payment} /> },
  {
    label: 'Evidence',
    className: 'payment-evidence-cell',
    cell: (payment) => <PaymentEvidence payment={payment} />,
  },
]

export function OrderDetailRoute() {
  const { orderId = '' } = useParams()
  useAdminTitle(`Order ${orderId.slice(0, 8)}`)
  const {
    data: order,
    error,
    isLoading,
    mutate,
  } = useSWR(['admin/order', orderId], () => getOrder(orderId))
  useSignOutOn401(error)

  if (isLoading) return <LoadingState label="Loading order…" />
  if (error || !order) {
    const message =
      error instanceof ApiError && error.status === 404
        ? 'Order not found.'
        : error instanceof Error
          ? error.message
          : `Failed to fetch order ${orderId}.`
    return (
      <section className="admin-page">
        <ErrorState message={message}>
          <Link to={paths.admin.orders}>Back to orders</Link>
        </ErrorState>
      </section>
    )
  }

  const canShip = order.product.type === 'PHYSICAL' && order.status === 'PROCESSING_DELIVERY'
  const flags = [
    order.flags.paidLate && 'Paid late (after the order expired)',
    order.flags.paidPartial && 'Paid partially (less than the amount due)',
    order.flags.paidOver && 'Paid over (more than the amount due)',
    order.flags.paidInvalid &&
      'Invalid payment (double-spent or dropped after it was seen; it does not count)',
  ].filter((flag): flag is string => Boolean(flag))

  return (
    <section className="admin-page">
      <AdminPageHeader
        back={{ to: paths.admin.orders, label: 'Orders' }}
        titleClassName="admin-order-title"
        title={
          <>
            Order <span className="admin-mono">{order.id.slice(0, 8)}</span>{' '}
            <OrderStatusBadge status={order.status} />
          </>
        }
      >
        <p className="muted admin-break">
          {order.id} · placed {dateTime(order.createdAt)}
        </p>
      </AdminPageHeader>

      {order.attention ? (
        <div className="admin-alert admin-alert--error" role="alert">
          <strong>
            Needs attention
            {order.attentionSince ? ` since ${dateTime(order.attentionSince)}` : ''}:
          </strong>
          <p className="admin-break">{order.attention}</p>
          <p>
            The payment worker tries this order again on its own, less often each time; this notice
            goes once it succeeds. If it stays, the reason above says what to repair.
          </p>
        </div>
      ) : null}

      {flags.length > 0 ? (
        <div
          className={`admin-alert ${order.needsSettling ? 'admin-alert--warning' : 'admin-alert--info'}`}
          role="status"
        >
          <strong>
            {order.needsSettling
              ? 'Needs settling:'
              : `Settled ${order.settledAt ? dateTime(order.settledAt) : ''}:`}
          </strong>
          <ul>
            {flags.map((flag) => (
              <li key={flag}>{flag}</li>
            ))}
          </ul>
          {order.needsSettling ? (
            <p>
              The payments below show each amount and transaction; settle the order with one of the
              actions under “Settle this order”.
            </p>
          ) : null}
        </div>
      ) : null}

      <div className="admin-grid">
        <div className="card admin-panel">
          <h2>Order</h2>
          <dl className="admin-dl">
            <Row label="Customer email">
              <EmailText email={order.userEmail} />
            </Row>
            <Row label="Product">
              {order.product.name} ({order.product.type === 'PHYSICAL' ? 'Physical' : 'Digital'})
            </Row>
            <Row label="Price paid">{euro(order.priceAtPurchaseUSD)}</Row>
            {order.shippingCostEUR !== null ? (
              <Row label="Shipping">
                {order.shippingCostEUR > 0
                  ? `${euro(order.shippingCostEUR)} (part of the price paid)`
                  : 'Included in the price'}
              </Row>
            ) : null}
            <Row label="Rate at purchase">{ratePerCoin(order.bsvUsdRateAtPurchase)}</Row>
            <Row label="Amount expected">{bsv(order.amountSatoshiExpected)}</Row>
            <Row label="Amount received">{bsv(order.amountSatoshiReceived)}</Row>
            <Row label="Payment transaction">
              {order.paymentTxid ? <TxLink txid={order.paymentTxid} /> : NOT_AVAILABLE}
            </Row>
            <Row label="Payment address">
              <span className="admin-mono admin-break">{order.paymentAddress}</span>{' '}
              <span className="muted">(index {order.addressIndex})</span>
            </Row>
            <Row label="Ordinal address">
              <span className="admin-break">{or(order.tokenAddress)}</span>
            </Row>
            <Row label="Payment window ends">{dateTime(order.gatewayExpiresAt)}</Row>
          </dl>
        </div>

        <div className="card admin-panel">
          <h2>Shipping</h2>
          {order.product.type === 'PHYSICAL' ? (
            <dl className="admin-dl">
              <Row label="Name">{or(order.shippingName)}</Row>
              <Row label="Address line 1">{or(order.shippingAddressLine1)}</Row>
              <Row label="Address line 2">{or(order.shippingAddressLine2)}</Row>
              <Row label="City">{or(order.shippingCity)}</Row>
              <Row label="State / province">{or(order.shippingStateProvince)}</Row>
              <Row label="Postal code">{or(order.shippingPostalCode)}</Row>
              <Row label="Country">{or(order.shippingCountry)}</Row>
              <Row label="Phone">{or(order.shippingPhone)}</Row>
              <Row label="Tracking number">{or(order.shippingTrackingNumber, NOT_AVAILABLE)}</Row>
              {order.shippedAt ? <Row label="Shipped">{dateTime(order.shippedAt)}</Row> : null}
            </dl>
          ) : (
            <>
              <p className="muted">Digital book: delivered by download link, nothing to ship.</p>
              <DownloadLinkAction
                order={order}
                onChanged={(updated) => void mutate(updated, { revalidate: false })}
              />
            </>
          )}
          {order.status === 'SHIPPED' ? (
            <>
              <p className="admin-alert admin-alert--info">Order has been shipped.</p>
              <ShipForm
                order={order}
                correcting
                onShipped={(updated) => void mutate(updated, { revalidate: false })}
              />
            </>
          ) : null}
          {canShip ? (
            <ShipForm
              order={order}
              onShipped={(updated) => void mutate(updated, { revalidate: false })}
            />
          ) : null}
        </div>
      </div>

      <OrderSettling
        order={order}
        onChanged={(updated) => void mutate(updated, { revalidate: false })}
      />

      <div className="card admin-panel">
        <h2>Payments received</h2>
        {!order.payments || order.payments.length === 0 ? (
          <p className="muted">No payment received yet.</p>
        ) : (
          <AdminTable
            plain
            columns={PAYMENT_COLUMNS}
            rows={order.payments}
            rowKey={(payment) => `${payment.txid}:${payment.vout}`}
          />
        )}
      </div>
      <OrderHistory history={order.history ?? []} />
    </section>
  )
}

/** Marks an order shipped with its tracking number, or (`correcting`) corrects that number. */
function ShipForm({
  order,
  onShipped,
  correcting = false,
}: {
  order: AdminOrderDetail
  onShipped: (order: AdminOrderDetail) => void
  correcting?: boolean
}) {
  // Shipping reads the tracking number only (its schema ignores the note).
  const schema = correcting
    ? correctTrackingSchema
    : (shipOrderSchema as typeof correctTrackingSchema)
  const form = useZodForm(schema, {
    defaultValues: {
      trackingNumber: correcting ? (order.shippingTrackingNumber ?? '') : '',
      note: '',
    },
  })
  const { errors, isSubmitting } = form.formState
  const { mutate } = useSWRConfig()
  const fieldId = correcting ? 'correctTrackingNumber' : 'trackingNumber'

  const onSubmit = async ({ trackingNumber, note }: CorrectTrackingInput) => {
    try {
      const updated = correcting
        ? await correctTracking(order.id, trackingNumber.trim(), (note ?? '').trim())
        : await markShipped(order.id, trackingNumber.trim())
      toast.success(correcting ? 'Tracking number corrected.' : 'Order marked as shipped!')
      onShipped(updated)
      form.reset({ trackingNumber: updated.shippingTrackingNumber ?? '', note: '' })
      void mutate((key) => typeof key === 'string' && key.startsWith('admin/orders?'))
    } catch (failure) {
      const message =
        failure instanceof Error && failure.message
          ? failure.message
          : correcting
            ? 'Failed to correct the tracking number.'
            : 'Failed to mark order as shipped.'
      form.setError('trackingNumber', { type: 'server', message })
      toast.error(`Failed: ${message}`)
    }
  }

  return (
    <form
      className="admin-ship"
      onSubmit={form.handleSubmit(onSubmit, (invalid) => {
        const message = invalid.trackingNumber?.message ?? invalid.note?.message
        if (message) toast.error(message)
      })}
      noValidate
    >
      <h3>{correcting ? 'Correct the tracking number' : 'Mark as shipped'}</h3>
      <FormField id={fieldId} label="Tracking number" error={errors.trackingNumber?.message}>
        {(control) => <input {...control} {...form.register('trackingNumber')} />}
      </FormField>
      {correcting ? (
        <FormField
          id="trackingNote"
          label="Why (kept in the order's history)"
          error={errors.note?.message}
        >
          {(control) => <input {...control} {...form.register('note')} maxLength={500} />}
        </FormField>
      ) : null}
      <button
        type="submit"
        className={correcting ? 'button button--ghost' : 'button button--primary'}
        disabled={isSubmitting}
      >
        {isSubmitting ? 'Saving...' : correcting ? 'Correct tracking number' : 'Mark as shipped'}
      </button>
    </form>
  )
}
