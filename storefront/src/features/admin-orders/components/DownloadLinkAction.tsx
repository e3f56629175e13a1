import { useState } from 'react'
import { toast } from 'react-toastify'

import type { AdminOrderDetail } from '../api/orders'
import { sendNewDownloadLink } from '../api/orders'

/**
 * "Send a new download link" on a paid PDF order: a fresh link (the usual lifetime and uses)
 * e-mailed to the buyer, recorded in the order's history. Earlier links keep their own limits.
 */
export function DownloadLinkAction({
  order,
  onChanged,
}: {
  order: AdminOrderDetail
  onChanged: (order: AdminOrderDetail) => void
}) {
  const [sending, setSending] = useState(false)
  if (order.product.type !== 'DIGITAL' || order.status !== 'PAID') return null

  const send = async () => {
    setSending(true)
    try {
      onChanged(await sendNewDownloadLink(order.id))
      toast.success(`A new download link is on its way to ${order.userEmail}.`)
    } catch (failure) {
      toast.error(
        `Failed: ${failure instanceof Error && failure.message ? failure.message : 'Failed to send a new download link.'}`,
      )
    } finally {
      setSending(false)
    }
  }

  return (
    <div className="admin-settle__recheck">
      <button
        type="button"
        className="button button--small button--ghost"
        onClick={() => void send()}
        disabled={sending}
      >
        {sending ? 'Sending…' : 'Send a new download link'}
      </button>
      <span className="muted">
        E-mails the buyer a fresh link; links sent before keep their own limits.
      </span>
    </div>
  )
}
