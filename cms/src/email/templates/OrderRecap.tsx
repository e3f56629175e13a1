import { formatBSV, formatEUR, isPhysical } from '@shop/domain'
import { Column, Link, Row, Section, Text } from '@react-email/components'

import { shippingLines } from '../../operations/orders/shippingLines'
import type { Order } from '../../payload-types'
import { styles } from './ShopEmail'

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Row>
      <Column>
        <Text style={styles.label}>{label}</Text>
        <Text style={styles.value}>{children}</Text>
      </Column>
    </Row>
  )
}

/** What was bought, for how much, how it was paid and where it goes. */
export function OrderRecap({
  order,
  explorerTxUrl,
  showReceived = false,
}: {
  order: Order
  /** The block explorer's transaction address, to which the txid is appended. */
  explorerTxUrl: string
  showReceived?: boolean
}) {
  const address = isPhysical(order.productType) ? shippingLines(order) : []
  return (
    <Section
      style={{
        border: '1px solid #d5d9e2',
        borderRadius: '6px',
        padding: '12px 16px',
        margin: '16px 0',
      }}
    >
      <Field label="Order">{order.id}</Field>
      <Field label="Book">
        {`${order.productName} (${isPhysical(order.productType) ? 'printed book' : 'PDF'})`}
      </Field>
      <Field label="Price">
        {`${formatBSV(order.amountSatoshiExpected)} BSV (about €${formatEUR(order.priceAtPurchaseUSD)})`}
      </Field>
      {showReceived && (
        <Field label="Received">{`${formatBSV(order.amountSatoshiReceived ?? 0)} BSV`}</Field>
      )}
      {order.paymentTxid && (
        <Field label="Payment transaction">
          <Link href={`${explorerTxUrl}${order.paymentTxid}`}>{order.paymentTxid}</Link>
        </Field>
      )}
      {address.length > 0 && (
        <Field label="Shipping to">
          {address.map((line, i) => (
            <span key={i}>
              {line}
              {i < address.length - 1 && <br />}
            </span>
          ))}
          {order.shippingPhone ? (
            <>
              <br />
              {order.shippingPhone}
            </>
          ) : null}
        </Field>
      )}
    </Section>
  )
}
