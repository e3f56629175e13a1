import type { SettlingBacklog } from '@shop/domain'
import { Icon } from '@/components/admin/Icon'

/** A paid order waiting longer than this is worth a look: the worker settles one in seconds. */
export const SETTLING_WARN_AFTER_SECONDS = 5 * 60

/** How long something has waited, in its largest units: "40 s", "12 min", "2 h 5 min", "3 d". */
export function waitedFor(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
  return `${Math.floor(hours / 24)} d`
}

/** What the card says of the backlog, and whether it asks for a look (the oldest waits long). */
export function settlingOf(backlog: SettlingBacklog): { warning: boolean; text: string } {
  const { undelivered, unmailed, oldestAgeSeconds } = backlog
  const waiting = undelivered + unmailed
  if (waiting === 0) return { warning: false, text: 'All paid orders delivered and mailed.' }
  const oldest = oldestAgeSeconds === null ? '' : `; oldest ${waitedFor(oldestAgeSeconds)}`
  return {
    warning: (oldestAgeSeconds ?? 0) > SETTLING_WARN_AFTER_SECONDS,
    text: `${waiting} paid order${waiting === 1 ? '' : 's'} waiting: ${undelivered} to deliver, ${unmailed} to mail${oldest}.`,
  }
}

/**
 * The paid orders the shop has not finished with: what a rush leaves behind until the payment
 * worker has delivered them and sent their e-mails.
 */
export function SettlingCard({
  backlog,
  failed,
}: {
  backlog: SettlingBacklog | undefined
  failed: boolean
}) {
  const verdict = backlog ? settlingOf(backlog) : null
  return (
    <section
      className={`card admin-card admin-settling${verdict?.warning ? ' admin-settling--warning' : ''}`}
      aria-labelledby="settling-title"
    >
      <span className="admin-card__icon">
        <Icon name="orders" size={28} />
      </span>
      <h2 id="settling-title">Settling</h2>
      <p className={verdict?.warning ? 'admin-settling__text' : 'muted'} role="status">
        {verdict ? verdict.text : failed ? 'The shop figures could not be loaded.' : 'Loading…'}
      </p>
    </section>
  )
}
