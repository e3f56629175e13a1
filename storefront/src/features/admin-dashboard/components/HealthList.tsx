import type { ReactNode } from 'react'

import type { AdminHealth } from '../api/dashboard'
import { ChainSources } from './ChainSources'
import { dateTime } from '@/lib/admin/format'

const CHAIN_NAMES = { simulator: 'Test-mode chain simulator', whatsonchain: 'WhatsOnChain' }
const DELIVERY_NAMES = {
  smtp: 'Sent by SMTP',
  log: 'Logged only (test mode without SMTP)',
  off: 'Turned off (EMAIL_DELIVERY=off)',
}

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`

/**
 * The chain source's verdict: an outage the owner was alerted about, a spent or nearly spent
 * daily cap, or addresses that keep failing ask for a look.
 */
export function chainVerdictOf(chain: AdminHealth['chain']): { ok: boolean; text: string } {
  const source = `${CHAIN_NAMES[chain.source]} (${chain.origin})`
  const usage = chain.usage
  const alert = `You are alerted after ${minutes(chain.alertAfterMinutes)} without a successful look.`
  if (chain.outage)
    return {
      ok: false,
      text: `${source}: no look has succeeded ${
        chain.outage.since ? `since ${dateTime(chain.outage.since)}` : 'since the worker started'
      }, so no payment is being detected. You were alerted ${dateTime(chain.outage.alertedAt)}.`,
    }
  const capSpent =
    usage !== null &&
    (usage.errorsLastHour.some((e) => e.kind === 'daily-cap') ||
      (usage.capPerDay !== null && usage.callsToday >= usage.capPerDay * 0.9))
  return {
    ok: !capSpent && (usage?.failingAddressCount ?? 0) === 0,
    text: [
      `${source}; ${chain.lastCheckAt ? `last look at an order ${dateTime(chain.lastCheckAt)}` : 'no order looked up yet'}${
        chain.lastLookOkAt ? `, last successful look ${dateTime(chain.lastLookOkAt)}` : ''
      }.`,
      capSpent
        ? 'The daily request cap is spent or nearly: looks stop until it resets (midnight UTC).'
        : '',
      alert,
    ]
      .filter(Boolean)
      .join(' '),
  }
}

/** One verdict per part of the machinery, worded for the owner, with what to look at. */
export function healthOf(health: AdminHealth): {
  name: string
  ok: boolean
  text: string
  details?: ReactNode
}[] {
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
      ...chainVerdictOf(chain),
      details: <ChainSources sources={chain.sources} />,
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
          <div className="admin-health__body">
            <span>
              <strong>{part.name}</strong>: {part.text}
            </span>
          </div>
          {part.details ? <div className="admin-health__details">{part.details}</div> : null}
        </li>
      ))}
    </ul>
  )
}
