import { DOWNLOAD_LINK_REISSUED } from '@shop/domain'
import type { Payload } from 'payload'

import type { OrderHistoryContext } from '../../collections/Orders/hooks/recordHistory'
import { slugs } from '../../collections/slugs'
import type { DownloadLinkSettings } from '../fulfilment/newDownloadLinks'
import {
  hasDownloadableBook,
  inTransaction,
  mailNewDownloadLinks,
} from '../fulfilment/newDownloadLinks'
import type { AdminOrderChange } from './getAdminOrder'
import { changedOrder, findOrderDoc, ORDER_NOT_FOUND } from './getAdminOrder'

/**
 * The owner sends the buyer of a paid PDF order a new download link ("Send a new download
 * link"): a fresh token with the usual lifetime and uses, e-mailed to the buyer, and an entry in
 * the order's history saying who did it. In one transaction: the token, the message and the
 * entry go together or not at all. The order's earlier links keep their own limits.
 */
export async function reissueDownloadLink({
  payload,
  id,
  by,
  settings,
}: {
  payload: Payload
  id: string
  /** The signed-in admin's e-mail. */
  by: string
  settings: DownloadLinkSettings
}): Promise<AdminOrderChange> {
  const order = await findOrderDoc({ payload, id })
  if (!order) return ORDER_NOT_FOUND
  if (!hasDownloadableBook(order))
    return {
      ok: false,
      status: 409,
      error: `Order is ${order.status}: only a paid and delivered PDF order has a download link to send.`,
    }
  await inTransaction(payload, async (req) => {
    await mailNewDownloadLinks({ payload, orders: [order], to: order.userEmail, settings, req })
    const context: OrderHistoryContext = {
      historyEntry: { action: DOWNLOAD_LINK_REISSUED, by, note: `Sent to ${order.userEmail}` },
    }
    await payload.update({
      req,
      collection: slugs.orders,
      id: order.id,
      data: {},
      depth: 0,
      context,
    })
  })
  payload.logger.info({ orderId: order.id }, 'new download link sent by the owner')
  return changedOrder({ payload, id: order.id })
}
