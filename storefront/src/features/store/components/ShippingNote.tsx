import { formatEUR } from '@shop/domain'

/**
 * What shipping adds to a printed book: nothing ("included") or an amount added at checkout.
 * Nothing for a PDF.
 */
export function ShippingNote({ shippingCostEUR }: { shippingCostEUR: string | null | undefined }) {
  if (shippingCostEUR === null || shippingCostEUR === undefined) return null
  const included = Number(shippingCostEUR) === 0
  return (
    <p className="shipping-note" data-testid="shipping-note">
      {included
        ? 'Shipping included in the price.'
        : `Shipping: €${formatEUR(shippingCostEUR)}, added at checkout.`}
    </p>
  )
}
