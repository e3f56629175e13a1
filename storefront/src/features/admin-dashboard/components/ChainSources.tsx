import type { ChainSourceHealth } from '@shop/domain'

import { ChainSourceDetails } from './ChainSourceDetails'
import { dateTime, EXPLORER_TX_URL, relativeTime, shortHash } from '@/lib/admin/format'

/**
 * One block per chain source the payment worker asks (WhatsOnChain, ARC): its last good answer,
 * its figures (calls today against the cap, errors of the last hour…), ARC's callbacks, and
 * where WhatsOnChain and ARC said different things about a transaction.
 */
export function ChainSources({
  sources,
  now = Date.now(),
}: {
  sources: readonly ChainSourceHealth[]
  now?: number
}) {
  return (
    <div className="chain-sources">
      {sources.map((source) => (
        <section
          key={source.name}
          className="chain-source"
          aria-label={source.name}
          data-testid={`chain-source-${source.name}`}
        >
          <h3 className="chain-source__name">
            {source.name}{' '}
            <span className="muted chain-source__origin">{source.origin ?? 'not configured'}</span>
          </h3>
          <p className="chain-source__answer">
            Last answer:{' '}
            {source.lastAnswerAt ? (
              <time dateTime={source.lastAnswerAt} title={dateTime(source.lastAnswerAt)}>
                {relativeTime(source.lastAnswerAt, now)}
              </time>
            ) : (
              'none yet'
            )}
          </p>
          {source.usage ? (
            <ChainSourceDetails usage={source.usage} />
          ) : (
            <p className="muted chain-source__none">No figures recorded yet.</p>
          )}
          {source.callbacks ? <Callbacks callbacks={source.callbacks} now={now} /> : null}
          <Disagreements disagreements={source.disagreements} now={now} />
        </section>
      ))}
    </div>
  )
}

function Disagreements({
  disagreements,
  now,
}: {
  disagreements: ChainSourceHealth['disagreements']
  now: number
}) {
  if (disagreements.length === 0)
    return <p className="muted chain-source__agreed">No disagreement.</p>
  return (
    <div className="chain-source__disagreements">
      <p className="chain-source__title">
        {disagreements.length === 1
          ? 'WhatsOnChain and ARC disagreed about one transaction:'
          : `WhatsOnChain and ARC disagreed about ${disagreements.length} transactions (the newest first):`}
      </p>
      <ul>
        {disagreements.map((d) => (
          <li key={`${d.txid}@${d.at}`}>
            <a
              href={`${EXPLORER_TX_URL}${d.txid}`}
              target="_blank"
              rel="noopener noreferrer"
              className="admin-mono"
              title={d.txid}
            >
              {shortHash(d.txid)}
            </a>{' '}
            <time dateTime={d.at} title={dateTime(d.at)}>
              {relativeTime(d.at, now)}
            </time>
            : WhatsOnChain said “{d.whatsonchain}”, ARC said “{d.arc}”
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * ARC's callbacks: how many came in the last day and when the last did, or that none came (ARC
 * may not reach the shop's receiver: the worker then asks on its schedule alone), or that the
 * shop registers none.
 */
function Callbacks({
  callbacks,
  now,
}: {
  callbacks: NonNullable<ChainSourceHealth['callbacks']>
  now: number
}) {
  if (!callbacks.url)
    return (
      <p className="muted chain-source__callbacks">
        Callbacks: off (ARC is asked on the worker&rsquo;s schedule only).
      </p>
    )
  return (
    <p className="chain-source__callbacks">
      Callbacks:{' '}
      {callbacks.lastAt ? (
        <>
          {callbacks.lastDay === 1 ? 'one' : callbacks.lastDay} in the last 24 hours, the last{' '}
          <time dateTime={callbacks.lastAt} title={dateTime(callbacks.lastAt)}>
            {relativeTime(callbacks.lastAt, now)}
          </time>
        </>
      ) : (
        'none in the last 24 hours'
      )}{' '}
      <span className="muted admin-mono chain-source__callback-url" title={callbacks.url}>
        to {callbacks.url}
      </span>
    </p>
  )
}
