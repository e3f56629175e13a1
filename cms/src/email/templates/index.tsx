import { formatBSV, isPhysical } from '@shop/domain'
import { Button, Heading, Link, Section, Text } from '@react-email/components'
import type { ReactElement } from 'react'

import type { OrderEmailKind } from '../../collections/EmailOutbox'
import type { Order } from '../../payload-types'
import { shippingLines } from '../../operations/orders/shippingLines'
import { OrderRecap } from './OrderRecap'
import { ShopEmail, styles } from './ShopEmail'
import type { DownloadLink, DownloadLinksEmailProps, EmailProps } from './types'

export { chainSourceDown } from './ChainSourceDown'
export type {
  ChainOutage,
  ChainOutageEmailProps,
  DownloadLink,
  DownloadLinksEmailProps,
  EmailProps,
  OrderDownloadLink,
  ShopInfo,
} from './types'

type Template = (props: EmailProps) => { subject: string; element: ReactElement }

const shortId = (order: Order) => order.id.slice(0, 8)
const when = (iso: string) => new Date(iso).toUTCString().replace(/:\d\d GMT$/, ' UTC')

/** The exceptions of an order, in the owner's words. */
export function exceptionReasons(order: Order): string[] {
  const flags = order.flags ?? {}
  return [
    flags.paidLate && 'a payment arrived after the order expired',
    flags.paidPartial && 'less than the amount due arrived',
    flags.paidOver && 'more than the amount due arrived',
    flags.paidInvalid && 'a payment was double-spent or dropped after it was seen',
  ].filter((reason): reason is string => Boolean(reason))
}

const orderCreated: Template = ({ shop, order }) => {
  const payUrl = `${shop.publicUrl}/pay/${order.id}`
  return {
    subject: `Your order for ${order.productName}`,
    element: (
      <ShopEmail
        shop={shop}
        preview={`Pay ${formatBSV(order.amountSatoshiExpected)} BSV to complete your order`}
      >
        <Heading style={styles.heading}>Thank you for your order</Heading>
        <Text style={styles.text}>
          {`To complete it, send ${formatBSV(order.amountSatoshiExpected)} BSV to `}
          <strong style={{ wordBreak: 'break-all' }}>{order.paymentAddress}</strong>
          {` before ${when(order.gatewayExpiresAt)}. The payment page shows the QR code for your wallet.`}
        </Text>
        <Section style={{ margin: '16px 0' }}>
          <Button href={payUrl} style={styles.button}>
            Open the payment page
          </Button>
        </Section>
        <OrderRecap order={order} explorerTxUrl={shop.explorerTxUrl} />
        <Text style={styles.muted}>
          You can follow your order at any time here: <Link href={payUrl}>{payUrl}</Link>
        </Text>
      </ShopEmail>
    ),
  }
}

const orderPaid: Template = ({ shop, order, download }) => {
  const payUrl = `${shop.publicUrl}/pay/${order.id}`
  return {
    subject: `Payment received: ${order.productName}`,
    element: (
      <ShopEmail shop={shop} preview={`We received your payment for ${order.productName}`}>
        <Heading style={styles.heading}>Payment received, thank you</Heading>
        {download ? (
          <>
            <Text style={styles.text}>Your book is ready to download.</Text>
            <DownloadButton download={download} label="Download your book" />
          </>
        ) : isPhysical(order.productType) ? (
          <Text style={styles.text}>
            We are preparing your book for shipping. You will get another e-mail with the tracking
            number when it leaves.
          </Text>
        ) : (
          <Text style={styles.text}>
            Your download link is on its way; if it does not arrive, write to us with your order id.
          </Text>
        )}
        <OrderRecap order={order} explorerTxUrl={shop.explorerTxUrl} showReceived />
        <Text style={styles.muted}>
          Your order: <Link href={payUrl}>{payUrl}</Link>
        </Text>
      </ShopEmail>
    ),
  }
}

/** A download link as the buyer gets it: the button, how it may be used, the plain address. */
function DownloadButton({ download, label }: { download: DownloadLink; label: string }) {
  return (
    <>
      <Section style={{ margin: '16px 0' }}>
        <Button href={download.url} style={styles.button}>
          {label}
        </Button>
      </Section>
      <Text style={styles.text}>
        {`The link is personal: it works ${download.maxUses} times, until ${when(download.expiresAt)}. If the button does not work, open `}
        <Link href={download.url}>{download.url}</Link>
      </Text>
    </>
  )
}

const orderShipped: Template = ({ shop, order }) => ({
  subject: `Your book has shipped: ${order.productName}`,
  element: (
    <ShopEmail shop={shop} preview={`Your order ${shortId(order)} is on its way`}>
      <Heading style={styles.heading}>Your book is on its way</Heading>
      <Text style={styles.text}>
        Tracking number: <strong>{order.shippingTrackingNumber || '(not given)'}</strong>
      </Text>
      <OrderRecap order={order} explorerTxUrl={shop.explorerTxUrl} />
    </ShopEmail>
  ),
})

const ownerPaid: Template = ({ shop, order }) => {
  const adminUrl = `${shop.publicUrl}/admin/orders/${order.id}`
  return {
    subject: `Order paid: ${order.productName} (${shortId(order)})`,
    element: (
      <ShopEmail shop={shop} preview={`${order.userEmail} paid for ${order.productName}`}>
        <Heading style={styles.heading}>An order was paid</Heading>
        <Text style={styles.text}>
          {`${order.userEmail} paid ${formatBSV(order.amountSatoshiReceived ?? 0)} BSV for ${order.productName}. ${
            isPhysical(order.productType)
              ? `It waits to be shipped to ${shippingLines(order).join(', ')}.`
              : 'The download link has been sent to the buyer.'
          }`}
        </Text>
        <OrderRecap order={order} explorerTxUrl={shop.explorerTxUrl} showReceived />
        <Section style={{ margin: '16px 0' }}>
          <Button href={adminUrl} style={styles.button}>
            Open the order
          </Button>
        </Section>
      </ShopEmail>
    ),
  }
}

const ownerSettle: Template = ({ shop, order }) => {
  const adminUrl = `${shop.publicUrl}/admin/orders/${order.id}`
  const reasons = exceptionReasons(order)
  return {
    subject: `Needs settling: order ${shortId(order)} (${order.productName})`,
    element: (
      <ShopEmail shop={shop} preview={`Order ${shortId(order)} needs you`}>
        <Heading style={styles.heading}>An order needs settling</Heading>
        <Text style={styles.text}>
          {`Order ${order.id} needs you: ${reasons.join('; ') || 'a payment exception'}. Status: ${order.status}.`}
        </Text>
        <OrderRecap order={order} explorerTxUrl={shop.explorerTxUrl} showReceived />
        <Text style={styles.text}>
          Settle it from its page: mark as paid, cancel, record a refund, or mark as settled.
        </Text>
        <Section style={{ margin: '16px 0' }}>
          <Button href={adminUrl} style={styles.button}>
            Settle the order
          </Button>
        </Section>
      </ShopEmail>
    ),
  }
}

/**
 * One template per kind of message about an order: the buyer's three, the owner's two (the
 * owner's alert about the chain source is `chainSourceDown`).
 */
export const EMAIL_TEMPLATES: Record<OrderEmailKind, Template> = {
  'order-created': orderCreated,
  'order-paid': orderPaid,
  'order-shipped': orderShipped,
  'owner-paid': ownerPaid,
  'owner-settle': ownerSettle,
}

/**
 * To a buyer who asked for their book again at /resend-link, or to whom the owner sent it again:
 * a fresh download link for each paid PDF order of the address. Earlier links keep their own
 * limits, and the message says so.
 */
export function downloadLinks({ shop, links }: DownloadLinksEmailProps): {
  subject: string
  element: ReactElement
} {
  const [first] = links
  const subject =
    links.length === 1 && first
      ? `Your new download link: ${first.order.productName}`
      : `Your new download links (${links.length} books)`
  return {
    subject,
    element: (
      <ShopEmail shop={shop} preview={subject}>
        <Heading style={styles.heading}>
          {links.length === 1 ? 'Your new download link' : 'Your new download links'}
        </Heading>
        <Text style={styles.text}>
          {`Here is a fresh download link for ${
            links.length === 1
              ? 'the book you bought'
              : `each of the ${links.length} books you bought`
          }; links you had before keep their own limits.`}
        </Text>
        {links.map(({ order, download }) => (
          <Section key={order.id} style={{ margin: '16px 0' }}>
            <DownloadButton download={download} label={`Download ${order.productName}`} />
            <OrderRecap order={order} explorerTxUrl={shop.explorerTxUrl} />
          </Section>
        ))}
        <Text style={styles.muted}>
          {
            'Did not ask for a new link? You can ignore this e-mail. Lost this one too? Ask again at '
          }
          <Link href={`${shop.publicUrl}/resend-link`}>{`${shop.publicUrl}/resend-link`}</Link>
        </Text>
      </ShopEmail>
    ),
  }
}
