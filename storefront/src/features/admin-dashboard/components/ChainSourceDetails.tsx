import { chainErrorsText } from '@shop/domain'
import type { ChainUsage } from '@shop/domain'
import { Link } from 'react-router-dom'

import { paths } from '@/config/paths'
import { dateTime } from '@/lib/admin/format'

const count = (n: number) => n.toLocaleString('en-US')

/** Calls today against the daily cap, with the share spent when the cap is known. */
export function callsTodayText(usage: Pick<ChainUsage, 'callsToday' | 'capPerDay'>): string {
  if (usage.capPerDay === null) return `${count(usage.callsToday)} (no daily cap known)`
  const share = usage.capPerDay > 0 ? Math.round((usage.callsToday / usage.capPerDay) * 100) : 100
  return `${count(usage.callsToday)} of ${count(usage.capPerDay)} (${share}%)`
}

/** The last hour's errors by kind, or "None". */
export function errorsText(errors: ChainUsage['errorsLastHour']): string {
  return errors.length === 0 ? 'None' : chainErrorsText(errors)
}

/**
 * The chain source's figures as the payment worker last recorded them: calls today against the
 * cap and in the last second against the limit, a 429's wait, errors of the last hour by kind,
 * and the addresses that keep failing, each with its order.
 */
export function ChainSourceDetails({ usage }: { usage: ChainUsage }) {
  const more = usage.failingAddressCount - usage.failingAddresses.length
  return (
    <div className="chain-usage">
      <dl className="chain-usage__figures">
        <div>
          <dt>Calls today</dt>
          <dd data-testid="chain-calls-today">{callsTodayText(usage)}</dd>
        </div>
        <div>
          <dt>Last second</dt>
          <dd>
            {count(usage.callsLastSecond)} of {count(usage.limitPerSecond)} per second
          </dd>
        </div>
        <div>
          <dt>Throttled</dt>
          <dd>{usage.throttledUntil ? `until ${dateTime(usage.throttledUntil)}` : 'No'}</dd>
        </div>
        <div className="chain-usage__wide">
          <dt>Errors, last hour</dt>
          <dd data-testid="chain-errors">{errorsText(usage.errorsLastHour)}</dd>
        </div>
      </dl>
      {usage.failingAddresses.length > 0 ? (
        <div className="chain-usage__failing">
          <p className="chain-usage__title">
            {count(usage.failingAddressCount)} address(es) failing on their own (the others are
            watched as usual):
          </p>
          <ul>
            {usage.failingAddresses.map((f) => (
              <li key={f.address}>
                <code className="chain-usage__address">{f.address}</code>{' '}
                {f.orderId ? <Link to={paths.admin.order(f.orderId)}>its order</Link> : null}
                <span className="muted">
                  {' '}
                  {f.failures} look(s) in a row since {dateTime(f.since)}: {f.reason}
                </span>
              </li>
            ))}
          </ul>
          {more > 0 ? <p className="muted">and {count(more)} more.</p> : null}
        </div>
      ) : null}
      <p className="muted chain-usage__recorded">Recorded {dateTime(usage.recordedAt)}.</p>
    </div>
  )
}
