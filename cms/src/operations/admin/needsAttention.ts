import type { Where } from 'payload'

/**
 * The orders the payment worker could not process: its last try at one threw, and the order
 * waits for its own retry (operations/orders/orderAttention.ts sets and clears the notice).
 */
export const NEEDS_ATTENTION_WHERE: Where = { attentionSince: { exists: true } }
