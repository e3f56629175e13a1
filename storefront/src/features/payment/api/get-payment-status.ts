import { api } from '@/lib/api-client'

export type PaymentStatus = {
  status: string
  txid: string | null
  downloadUrl: string | null
  /** Beyond the spec: what is left to pay now. */
  amountDueBSV?: string
}

export function getPaymentStatus(orderId: string): Promise<PaymentStatus> {
  return api.get<PaymentStatus>(
    `/api/orders/${encodeURIComponent(orderId)}/payment-status`,
    'Failed to fetch payment status.',
  )
}

/** The PDF download token is the last path segment of downloadUrl (/download/pdf/<token>). */
export function downloadTokenFrom(downloadUrl: string | null | undefined): string | null {
  if (!downloadUrl) return null
  const path = downloadUrl.split(/[?#]/)[0] ?? ''
  const token = path.split('/').filter(Boolean).pop()
  return token ? decodeURIComponent(token) : null
}
