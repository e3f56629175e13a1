import type { ReactNode } from 'react'
import { useState } from 'react'
import type { AdminPayment } from '../api/orders'
import { dateTime, NOT_AVAILABLE, NOT_PROVIDED, shortHash } from '@/lib/admin/format'

const or = (value: string | null | undefined, fallback = NOT_PROVIDED) =>
  value && value.trim() ? value : fallback

/**
 * The payment's standing on the chain, as a badge: invalid, in doubt, confirmed (only with a
 * merkle proof the shop verified), in a block but not proven, or unconfirmed.
 */
export function PaymentConfirmation({ payment }: { payment: AdminPayment }) {
  if (payment.invalidatedAt)
    return (
      <span className="admin-badge admin-badge--error" title={payment.invalidReason ?? undefined}>
        invalid
      </span>
    )
  if (payment.doubtedAt) return <span className="admin-badge admin-badge--warning">in doubt</span>
  if (payment.proof) return <span className="admin-badge admin-badge--success">confirmed</span>
  if (payment.blockHeight !== null || payment.confirmedAt)
    return <span className="admin-badge admin-badge--warning">not proven</span>
  return <span className="admin-badge admin-badge--warning">unconfirmed</span>
}

/**
 * The full hashes and the merkle path, drawn only while open: a long path is laid out when the
 * owner asks for it.
 */
function ProofDetails({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false)
  return (
    <details
      className="payment-evidence__details"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>Merkle path and full hashes</summary>
      {open ? children : null}
    </details>
  )
}

/**
 * What the owner needs to judge a payment beside the badge: a reported competing spend (in
 * doubt: it does not count until the chain settles it), the second source's (ARC's) last word,
 * and the merkle proof the shop verified, or the proof it refused (a finding, never a
 * confirmation).
 */
export function PaymentEvidence({ payment }: { payment: AdminPayment }) {
  const { proof } = payment
  return (
    <div className="payment-evidence">
      {payment.doubtedAt ? (
        <p className="payment-evidence__doubt" data-testid="payment-doubt">
          <strong className="payment-evidence__lead">
            In doubt since {dateTime(payment.doubtedAt)}:
          </strong>{' '}
          {or(payment.doubtReason).replace(/\.$/, '')}. It does not count until the chain settles
          it.
        </p>
      ) : null}
      <p data-testid="payment-arc">
        {payment.arcStatus
          ? `ARC: ${payment.arcStatus} (${dateTime(payment.arcCheckedAt)})`
          : 'ARC: not asked'}
      </p>
      {proof ? (
        <div className="payment-evidence__proof" data-testid="payment-proof">
          <p>
            <strong className="payment-evidence__lead">
              Merkle proof verified {dateTime(proof.verifiedAt)}:
            </strong>{' '}
            block {proof.blockHeight ?? NOT_AVAILABLE} (
            <code
              className="admin-mono payment-evidence__short"
              title={proof.blockHash ?? undefined}
            >
              {shortHash(proof.blockHash)}
            </code>
            ), merkle root{' '}
            <code
              className="admin-mono payment-evidence__short"
              title={proof.merkleRoot ?? undefined}
            >
              {shortHash(proof.merkleRoot)}
            </code>
            , checked against: {or(proof.sources)}
          </p>
          <ProofDetails>
            <dl>
              <dt>Block hash</dt>
              <dd className="payment-evidence__hex">{or(proof.blockHash, NOT_AVAILABLE)}</dd>
              <dt>Merkle root</dt>
              <dd className="payment-evidence__hex">{or(proof.merkleRoot, NOT_AVAILABLE)}</dd>
              <dt>Merkle path (BUMP)</dt>
              <dd className="payment-evidence__hex">{or(proof.merklePath)}</dd>
            </dl>
          </ProofDetails>
        </div>
      ) : payment.blockHeight !== null ? (
        <p className="muted">In block {payment.blockHeight}, not proven yet</p>
      ) : payment.invalidatedAt ? null : (
        <p className="muted">Not in a block yet</p>
      )}
      {payment.proofProblem ? (
        <p className="payment-evidence__refused" data-testid="payment-proof-refused">
          <strong className="payment-evidence__lead">Proof refused:</strong> {payment.proofProblem}
        </p>
      ) : null}
    </div>
  )
}
