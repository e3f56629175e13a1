import type { OrderHistoryAction, OrderStatus } from '@shop/domain'
import type { CollectionBeforeChangeHook } from 'payload'

import type { Order } from '../../../payload-types'

/** Set in a change's context by the owner's actions: what the history records beside the move. */
export type OrderHistoryContext = {
  /** Recorded once (`recorded`): what the change causes in the same request is the system's. */
  historyEntry?: {
    action: OrderHistoryAction
    by: string
    note?: string
    txid?: string
    recorded?: boolean
  }
}

/** Changes no person made: the payment engine's, and delivery after a payment. */
export const SYSTEM_ACTOR = 'system'

type HistoryEntry = NonNullable<Order['history']>[number]

const FLAG_NAMES = ['paidLate', 'paidPartial', 'paidOver', 'paidInvalid'] as const

/**
 * Runs after the transition check, on every door: each status change and each owner action adds
 * one entry to the order's history (who, when, why). New money, or a flag raised anew, reopens
 * an order the owner had settled.
 */
export const recordHistory: CollectionBeforeChangeHook<Order> = ({
  data,
  originalDoc,
  operation,
  req,
  context,
}) => {
  if (operation !== 'update' || !originalDoc) return data
  const from = originalDoc.status as OrderStatus
  const to = (data.status ?? from) as OrderStatus
  const given = (context as OrderHistoryContext).historyEntry
  const owner = given && !given.recorded ? given : undefined
  const entries: HistoryEntry[] = []
  // A shipped order's tracking number corrected, through any door: who, when, old and new.
  const oldTracking = originalDoc.shippingTrackingNumber
  const newTracking = data.shippingTrackingNumber
  if (oldTracking && newTracking !== undefined && (newTracking ?? '') !== oldTracking) {
    entries.push({
      at: new Date().toISOString(),
      by: owner?.by ?? (req.user?.email as string | undefined) ?? SYSTEM_ACTOR,
      action: 'tracking',
      fromStatus: from,
      toStatus: to,
      note: `${oldTracking} → ${newTracking || '(none)'}${owner?.action === 'tracking' && owner.note ? `: ${owner.note}` : ''}`,
      txid: null,
    })
    if (owner?.action === 'tracking') owner.recorded = true
  }
  if ((owner && owner.action !== 'tracking') || from !== to) {
    const entry: HistoryEntry = {
      at: new Date().toISOString(),
      by: owner?.by ?? (req.user?.email as string | undefined) ?? SYSTEM_ACTOR,
      action: owner?.action ?? 'status',
      fromStatus: from,
      toStatus: to,
      note: owner?.note ?? null,
      txid: owner?.txid ?? null,
    }
    entries.push(entry)
    if (owner) owner.recorded = true
  }
  if (entries.length > 0) {
    const previous = (originalDoc.history ?? []).map(({ id: _id, ...rest }) => rest)
    data.history = [...previous, ...entries]
  }

  const receivedMore =
    data.amountSatoshiReceived !== undefined &&
    (data.amountSatoshiReceived ?? 0) > (originalDoc.amountSatoshiReceived ?? 0)
  const raised = FLAG_NAMES.some((flag) => data.flags?.[flag] && !originalDoc.flags?.[flag])
  if (!owner && originalDoc.settledAt && (receivedMore || raised)) data.settledAt = null
  return data
}
