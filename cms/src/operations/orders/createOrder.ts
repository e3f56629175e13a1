import type { CreateOrderRequest } from '@shop/domain'
import {
  COUNTRY_RULE,
  eurToSatoshis,
  findCountry,
  isEmail,
  isPhoneNumber,
  isPhysical,
  orderTotalEUR,
  PHONE_RULE,
} from '@shop/domain'
import type { Payload } from 'payload'

import type { Env } from '../../config/env'
import { productForCheckout } from '../../db/productForCheckout'
import { storeNewOrder } from '../../db/storeNewOrder'
import { waitingCountsOf, waitingOrdersColumns } from '../../db/openOrders'
import { clientKeyOf, hoardingProblem, TOO_MANY_WAITING } from './limitOpenOrders'
import {
  deriveOrderAddress,
  normalizeTokenAddress,
  prepareOrderAddresses,
  rateProviderFor,
  type RateSettings,
} from '@shop/chain'

/** A reason the order cannot be created, worded for the buyer. */
export class OrderRequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message)
    this.name = 'OrderRequestError'
  }
}

const REQUIRED_SHIPPING = [
  ['shippingName', 'full name'],
  ['shippingAddressLine1', 'address line 1'],
  ['shippingCity', 'city'],
  ['shippingPostalCode', 'postal code'],
  ['shippingCountry', 'country'],
] as const

type OrderSettings = RateSettings &
  Pick<
    Env,
    | 'bsvXpub'
    | 'bsvNetwork'
    | 'orderExpiryMinutes'
    | 'publicUrl'
    | 'maxOpenOrdersPerClient'
    | 'maxOpenOrdersPerEmail'
    | 'emailsPerAddressPerHour'
  >

/**
 * Checkout: validates the request, prices it at the current rate, then in one transaction claims
 * a never-used address index, stores the order, takes one copy for it and queues the buyer's
 * "order created" e-mail (`storeNewOrder`). A failed or cut-off checkout leaves nothing behind:
 * no order, no copy taken, no index spent, no e-mail.
 */
export async function createOrder({
  payload,
  env,
  input,
  clientAddress,
}: {
  payload: Payload
  env: OrderSettings
  input: CreateOrderRequest
  /** The client's address as the web server sees it (TRUST_PROXY decides whose word counts). */
  clientAddress: string
}): Promise<{ orderId: string }> {
  const email = input.userEmail.trim().toLowerCase()
  if (!isEmail(email)) throw new OrderRequestError('Please enter a valid email address.')
  const token = normalizeTokenAddress(input.tokenAddress)
  if (!token.ok) {
    throw new OrderRequestError(
      'The token address must be a paymail (alias@domain) or a valid BSV address.',
    )
  }

  // The buyer's waiting orders are counted in the product's statement (one read, not two).
  const clientKey = clientKeyOf(payload, clientAddress)
  const waitingOf = { limits: env, clientKey, email }
  const product = await productForCheckout(
    payload,
    input.productId,
    waitingOrdersColumns(waitingOf),
  )
  if (!product || product.deletedAt)
    throw new OrderRequestError('This book is no longer available.', 404)
  if (!product.isAvailable) throw new OrderRequestError('This book is not available for sale.', 409)
  if ((product.currentStock ?? 0) <= 0)
    throw new OrderRequestError('This book is out of stock.', 409)

  const physical = isPhysical(product.type)
  if (physical) {
    const missing = REQUIRED_SHIPPING.filter(([field]) => !input[field]?.trim()).map(
      ([, label]) => label,
    )
    if (missing.length > 0)
      throw new OrderRequestError(`Please fill in the shipping ${missing.join(', ')}.`)
    if (!findCountry(input.shippingCountry)) throw new OrderRequestError(COUNTRY_RULE)
    const phone = input.shippingPhone?.trim()
    if (phone && !isPhoneNumber(phone)) throw new OrderRequestError(PHONE_RULE)
  }

  const hoarding = await hoardingProblem({
    payload,
    ...waitingOf,
    counted: product.also && waitingCountsOf(product.also),
  })
  if (hoarding) throw new OrderRequestError(hoarding, 429)

  // A printed book's shipping is part of the price paid, so the BSV amount due covers it.
  const shippingCostEUR = physical ? (product.shippingCostEUR ?? 0) : null
  const priceEUR = orderTotalEUR(product.priceEUR, shippingCostEUR ?? 0)

  // The rate first: when no rate source answers, nothing has been reserved yet.
  const rate = await rateProviderFor(env).getRate()
  const amountSatoshiExpected = eurToSatoshis(priceEUR, rate)

  const shipping = (
    field:
      | (typeof REQUIRED_SHIPPING)[number][0]
      | 'shippingAddressLine2'
      | 'shippingStateProvince'
      | 'shippingPhone',
  ) => (physical ? input[field]?.trim() || null : null)
  // One transaction, one commit to disk: the address index, the order and its copy of the book
  // are taken together or not at all (decision 014: not three commits, each an fsync).
  const stored = await storeNewOrder({
    payload,
    // Counted again inside the write: the counts above may be stale under a burst.
    limits: {
      maxOpenOrdersPerClient: env.maxOpenOrdersPerClient,
      maxOpenOrdersPerEmail: env.maxOpenOrdersPerEmail,
    },
    // Beyond its address's hourly limit, the order is stored all the same, without the e-mail.
    createdEmail: { perAddressPerHour: env.emailsPerAddressPerHour },
    addressFor: (index) => {
      const wallet = { xpub: env.bsvXpub, network: env.bsvNetwork }
      const address = deriveOrderAddress({ ...wallet, index })
      // The next ones are derived on the address thread, not while a buyer waits.
      void prepareOrderAddresses({ ...wallet, from: index + 1 })
      return address
    },
    fields: {
      product: product.id,
      productName: product.name,
      productType: physical ? 'PHYSICAL' : 'DIGITAL',
      userEmail: email,
      clientKey,
      tokenAddress: token.value,
      priceAtPurchaseUSD: Number(priceEUR),
      shippingCostEUR,
      bsvUsdRateAtPurchase: rate,
      amountSatoshiExpected,
      gatewayExpiresAt: new Date(Date.now() + env.orderExpiryMinutes * 60_000).toISOString(),
      shippingName: shipping('shippingName'),
      shippingAddressLine1: shipping('shippingAddressLine1'),
      shippingAddressLine2: shipping('shippingAddressLine2'),
      shippingCity: shipping('shippingCity'),
      shippingStateProvince: shipping('shippingStateProvince'),
      shippingPostalCode: shipping('shippingPostalCode'),
      shippingCountry: physical ? (findCountry(input.shippingCountry)?.name ?? null) : null,
      shippingPhone: shipping('shippingPhone'),
    },
  })
  if (!stored) throw new OrderRequestError('This book is out of stock.', 409)
  if ('limited' in stored) throw new OrderRequestError(TOO_MANY_WAITING, 429)
  return stored
}
