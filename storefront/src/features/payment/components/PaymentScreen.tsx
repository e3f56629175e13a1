import { useEffect, useState } from 'react'
import type { ReactNode } from 'react'
import { QRCodeSVG } from 'qrcode.react'
import { Link, useNavigate } from 'react-router-dom'
import { toast } from 'react-toastify'
import useSWR from 'swr'
import type { OrderStatus } from '@shop/domain'

import { paths } from '@/config/paths'

import type { OrderInfo } from '../api/get-order-info'
import { downloadTokenFrom, getPaymentStatus } from '../api/get-payment-status'
import { getShopConfig } from '../api/get-shop-config'
import { formatCountdown, useCountdown } from '../hooks/use-countdown'
import { usePaymentStatus } from '../hooks/use-payment-status'
import {
  expiresLocallyAtZero,
  isFinalPayStatus,
  isPaidStatus,
  paymentUri,
  toOrderStatus,
} from '../status'
import { CopyField } from './CopyField'
import { TestModePanel } from './TestModePanel'

const POLL_INTERVAL_MS = 5000
const REDIRECT_DELAY_MS = 2500

const TITLES: Record<OrderStatus, string> = {
  AWAITING_PAYMENT: 'Complete Your Payment',
  PAYMENT_DETECTED: 'Payment Detected...',
  UNDERPAID: 'Underpayment Received',
  PAID: 'Payment Confirmed!',
  PROCESSING_DELIVERY: 'Payment Confirmed!',
  SHIPPED: 'Payment Confirmed!',
  EXPIRED: 'Invoice Expired',
  ERROR_FULFILLMENT: 'Order Error - Please contact support.',
  CANCELLED: 'Order Cancelled',
}

/** An invoice that can no longer be paid: why, and the way back to the store. */
function ClosedInvoice({ children }: { children: ReactNode }) {
  return (
    <div className="pay-progress">
      <p>{children}</p>
      <Link to={paths.store} className="button button--primary">
        Back to the Store
      </Link>
    </div>
  )
}

/** The pay screen for loaded order info: status, QR, copy fields, countdown and polling (spec section 4). */
export function PaymentScreen({ orderId, info }: { orderId: string; info: OrderInfo }) {
  const navigate = useNavigate()
  const [expiredLocally, setExpiredLocally] = useState(false)
  const { data: config } = useSWR('shop-config', getShopConfig)

  const initialStatus = toOrderStatus(info.currentStatus)
  const startsFinal = isFinalPayStatus(initialStatus)
  // Polling goes on past a local expiry until the server's status is final: a payment sent in
  // the last second is still recorded on time, and the screen then follows the server.
  const poll = usePaymentStatus(orderId, !startsFinal, POLL_INTERVAL_MS)

  const serverStatus = poll.data ? toOrderStatus(poll.data.status) : initialStatus
  const status: OrderStatus =
    expiredLocally && serverStatus === 'AWAITING_PAYMENT' ? 'EXPIRED' : serverStatus
  const isFinal = isFinalPayStatus(status)
  const paid = isPaidStatus(status)
  const txid = poll.data?.txid ?? info.txid ?? null
  // What is left to pay (the whole amount until something arrives).
  const dueBSV = poll.data?.amountDueBSV ?? info.amountDueBSV ?? info.amountBSV

  const seconds = useCountdown(info.gatewayExpiresAt, !isFinal)
  useEffect(() => {
    if (seconds === 0 && !isFinal && expiresLocallyAtZero(status)) setExpiredLocally(true)
  }, [seconds, isFinal, status])

  useEffect(() => {
    if (!paid) return
    toast.success('Payment confirmed! Redirecting...', { toastId: `paid-${orderId}` })
    let cancelled = false
    const timer = window.setTimeout(async () => {
      let downloadUrl: string | null = null
      try {
        downloadUrl = (await getPaymentStatus(orderId)).downloadUrl
      } catch (error) {
        console.error('Payment status before redirect failed', error)
      }
      if (cancelled) return
      navigate(paths.orderSuccess(orderId), {
        state: { downloadToken: downloadTokenFrom(downloadUrl), productType: info.productType },
      })
    }, REDIRECT_DELAY_MS)
    return () => {
      cancelled = true
      window.clearTimeout(timer)
    }
  }, [paid, orderId, info.productType, navigate])

  const showPaymentDetails = status === 'AWAITING_PAYMENT' || status === 'UNDERPAID'
  const testMode = config?.testMode === true

  return (
    <section className="container page pay" aria-labelledby="pay-title">
      <title>{`${TITLES[status]} · Dual Vote`}</title>
      {testMode ? (
        <p className="pay-test-banner" role="note">
          <strong>Test mode</strong> — payments go to a simulated chain. No real BSV is spent.
        </p>
      ) : null}

      <div className={`card pay-card pay-card--${status.toLowerCase()}`}>
        <div aria-live="polite" aria-atomic="true">
          <h1 id="pay-title" className="pay-title">
            {TITLES[status]}
          </h1>
        </div>
        <p className="pay-product">
          <span className="muted">Order for </span>
          <strong>{info.productName}</strong>
        </p>

        {status === 'AWAITING_PAYMENT' ? (
          <p className="pay-amount-line">
            Send exactly <strong className="pay-amount">{info.amountBSV} BSV</strong>
          </p>
        ) : null}
        {status === 'UNDERPAID' ? (
          <p className="pay-message pay-message--warning">
            We received part of your payment, but less than the{' '}
            <strong>{info.amountBSV} BSV</strong> due. Please send the remaining balance of{' '}
            <strong className="pay-amount">{dueBSV} BSV</strong> to the same address before the
            invoice expires.
          </p>
        ) : null}

        {showPaymentDetails ? (
          <>
            <div className="pay-qr">
              <QRCodeSVG
                value={paymentUri(info.paymentAddress, dueBSV)}
                size={220}
                level="H"
                marginSize={2}
                title={`Payment QR code for ${dueBSV} BSV`}
                role="img"
                aria-label={`Payment QR code for ${dueBSV} BSV`}
                data-testid="payment-qr"
                data-uri={paymentUri(info.paymentAddress, dueBSV)}
              />
            </div>
            <CopyField label="Payment address" value={info.paymentAddress} what="Address" />
            <CopyField
              label={status === 'UNDERPAID' ? 'Remaining amount (BSV)' : 'Amount (BSV)'}
              value={dueBSV}
              what="Amount"
            />
            {seconds !== null ? (
              <p className="pay-countdown">
                Time remaining{' '}
                <time className="pay-countdown__value" aria-label="Time remaining" role="timer">
                  {formatCountdown(seconds)}
                </time>
              </p>
            ) : null}
          </>
        ) : null}

        {status === 'PAYMENT_DETECTED' ? (
          <div className="pay-progress">
            <span className="spinner" aria-hidden="true" />
            <p>We have seen your payment on the network and are waiting for it to confirm.</p>
            <p className="pay-strong">You can safely close this window.</p>
          </div>
        ) : null}

        {paid ? (
          <div className="pay-progress pay-progress--success">
            <span className="pay-check" aria-hidden="true">
              ✓
            </span>
            <p>Thank you! Taking you to your order confirmation…</p>
          </div>
        ) : null}

        {status === 'EXPIRED' ? (
          <ClosedInvoice>
            This invoice has expired and can no longer be paid. If you already sent funds, please
            contact support with your order number.
          </ClosedInvoice>
        ) : null}

        {status === 'CANCELLED' ? (
          <ClosedInvoice>
            This order was cancelled by the shop and can no longer be paid. If you sent funds, we
            have been in touch or will be about a refund; please contact support with your order
            number if you have questions.
          </ClosedInvoice>
        ) : null}

        {status === 'ERROR_FULFILLMENT' ? (
          <div className="pay-progress">
            <p className="pay-message pay-message--error">
              Your payment was received, but we could not complete your order automatically. Please
              contact support with your order number; nothing is lost.
            </p>
          </div>
        ) : null}

        {txid ? (
          <p className="pay-txid">
            <span className="muted">Last transaction: </span>
            <a
              href={`${config?.explorerTxUrl ?? 'https://whatsonchain.com/tx/'}${txid}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              {txid}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </p>
        ) : null}

        {testMode ? (
          <TestModePanel
            orderId={orderId}
            canPay={showPaymentDetails}
            canMine={!isFinal}
            onChanged={poll.refresh}
          />
        ) : null}

        <footer className="pay-footer">
          {status === 'AWAITING_PAYMENT' ? (
            <p>
              <span className="spinner spinner--small" aria-hidden="true" /> Waiting for your
              payment…
            </p>
          ) : null}
          {status === 'UNDERPAID' ? (
            <p className="pay-strong">Please send the remaining funds.</p>
          ) : null}
          {!isFinal ? (
            <p className="muted">
              {showPaymentDetails ? 'You may close this window after paying: we' : 'We'} will email
              you when your payment is confirmed
              {info.productType === 'PDF'
                ? ', with your download link.'
                : ' and again when your book ships.'}
            </p>
          ) : null}
          {paid ? (
            <p className="muted">
              {info.productType === 'PDF'
                ? 'Your download link is on the next page and in the e-mail we have sent you.'
                : 'We have e-mailed you a confirmation, and will e-mail you again when your book ships.'}
            </p>
          ) : null}
          <p className="muted pay-order-id">Order number: {orderId}</p>
        </footer>
      </div>
    </section>
  )
}
