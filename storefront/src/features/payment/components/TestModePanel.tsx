import { useState } from 'react'
import { toast } from 'react-toastify'

import { mineTestBlock, payWithTestWallet } from '../api/test-wallet'

/** Test mode only: pay this order from the simulator's wallet and mine blocks to confirm it. */
export function TestModePanel({
  orderId,
  canPay,
  canMine,
  onChanged,
}: {
  orderId: string
  canPay: boolean
  canMine: boolean
  onChanged: () => void
}) {
  const [busy, setBusy] = useState<'pay' | 'mine' | null>(null)

  const run = async (action: 'pay' | 'mine') => {
    setBusy(action)
    try {
      if (action === 'pay') {
        await payWithTestWallet(orderId)
        toast.info('Test payment sent.')
      } else {
        const { height } = await mineTestBlock()
        toast.info(`Block ${height} mined.`)
      }
      onChanged()
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Test wallet action failed.')
    } finally {
      setBusy(null)
    }
  }

  if (!canPay && !canMine) return null
  return (
    <div className="pay-test-tools" aria-label="Test wallet">
      {canPay ? (
        <button
          type="button"
          className="button button--primary"
          disabled={busy !== null}
          onClick={() => void run('pay')}
        >
          {busy === 'pay' ? 'Paying...' : 'Pay with test wallet'}
        </button>
      ) : null}
      {canMine ? (
        <button
          type="button"
          className="button button--ghost"
          disabled={busy !== null}
          onClick={() => void run('mine')}
        >
          {busy === 'mine' ? 'Mining...' : 'Mine a block'}
        </button>
      ) : null}
    </div>
  )
}
