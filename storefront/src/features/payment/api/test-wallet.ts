import { api } from '@/lib/api-client'

/** Test mode only: pays the order from the simulator's wallet (full amount unless given). */
export function payWithTestWallet(orderId: string, amountBSV?: string): Promise<{ txid: string }> {
  return api.post<{ txid: string }>(
    `/api/test-mode/orders/${encodeURIComponent(orderId)}/pay`,
    amountBSV ? { amountBSV } : {},
    'Test payment failed.',
  )
}

/** Test mode only: mines a block on the simulator so payments confirm. */
export function mineTestBlock(): Promise<{ height: number }> {
  return api.post<{ height: number }>('/api/test-mode/mine', {}, 'Mining a block failed.')
}
