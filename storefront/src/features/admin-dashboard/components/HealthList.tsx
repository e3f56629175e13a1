import type { AdminHealth } from '../api/dashboard'
import { dateTime } from '@/lib/admin/format'

const CHAIN_NAMES = { simulator: 'Test-mode chain simulator', whatsonchain: 'WhatsOnChain' }
const DELIVERY_NAMES = {
  smtp: 'Sent by SMTP',
  log: 'Logged only (test mode without SMTP)',
  off: 'Turned off (EMAIL_DELIVERY=off)',
}

/** One verdict per part of the machinery, worded for the owner, with what to look at. */
export function healthOf(health: AdminHealth) {
  const { worker, chain, email } = health
  return [
    {
      name: 'Payment worker',
      ok: worker.running,
      text: worker.running
        ? 'Running: payments are being watched.'
        : worker.leaseUntil
          ? `Not running since ${dateTime(worker.leaseUntil)}: no payment is being detected. Start the worker.`
          : 'Not started yet: no payment is being detected. Start the worker.',
    },
    {
      name: 'Chain source',
      ok: true,
      text: `${CHAIN_NAMES[chain.source]} (${chain.origin}); ${chain.lastCheckAt ? `last look at an order ${dateTime(chain.lastCheckAt)}` : 'no order looked up yet'}.`,
    },
    {
      name: 'E-mail',
      ok: email.delivery !== 'off' && email.failed === 0,
      text: [
        `${DELIVERY_NAMES[email.delivery]}.`,
        `${email.pending} waiting, ${email.failed} failed.`,
        email.lastSentAt ? `Last sent ${dateTime(email.lastSentAt)}.` : 'None sent yet.',
        email.lastError ? `Last error: ${email.lastError}` : '',
      ]
        .filter(Boolean)
        .join(' '),
    },
  ]
}

export function HealthList({ health }: { health: AdminHealth }) {
  return (
    <ul className="admin-health">
      {healthOf(health).map((part) => (
        <li key={part.name} className="admin-health__item">
          <span className={`admin-badge admin-badge--${part.ok ? 'success' : 'error'}`}>
            {part.ok ? 'OK' : 'Check'}
          </span>
          <span>
            <strong>{part.name}</strong>: {part.text}
          </span>
        </li>
      ))}
    </ul>
  )
}
