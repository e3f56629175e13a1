import { statusLabel, statusTone } from '../api/orders'

export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <span className={`admin-badge admin-badge--${statusTone(status)}`}>{statusLabel(status)}</span>
  )
}
