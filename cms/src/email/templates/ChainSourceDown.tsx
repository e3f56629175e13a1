import { chainErrorsText } from '@shop/domain'
import { Button, Heading, Section, Text } from '@react-email/components'
import type { ReactElement } from 'react'

import { ShopEmail, styles } from './ShopEmail'
import type { ChainOutageEmailProps } from './types'

const SOURCE_NAMES = { simulator: 'the test-mode chain simulator', whatsonchain: 'WhatsOnChain' }
const when = (iso: string) => new Date(iso).toUTCString().replace(/:\d\d GMT$/, ' UTC')
const count = (n: number) => n.toLocaleString('en-US')

/** What the owner can check first, from what the chain client saw. */
function likelyCause(outage: ChainOutageEmailProps['outage']): string {
  const kinds = new Set(outage.usage?.errorsLastHour.map((e) => e.kind) ?? [])
  if (kinds.has('daily-cap'))
    return "The plan's daily request cap is spent: looks resume after midnight UTC, or with a plan that allows more."
  if (kinds.has('throttled'))
    return 'The source keeps answering 429 (too many requests): check that WOC_API_KEY is a key it accepts, and WOC_MAX_REQUESTS_PER_SECOND.'
  if (kinds.has('network'))
    return 'The source does not answer: check that the server reaches it (network, DNS, firewall) and WOC_API_URL.'
  if (kinds.has('server'))
    return 'The source answers with server errors: it may be down; its status page says more.'
  return 'Check that the payment worker runs and reaches the source (the dashboard shows both).'
}

/**
 * To the owner (OWNER_EMAIL), once per outage: no look at the watched orders has succeeded for
 * CHAIN_ALERT_MINUTES, so payments are not being detected.
 */
export function chainSourceDown({ shop, outage }: ChainOutageEmailProps): {
  subject: string
  element: ReactElement
} {
  const source = SOURCE_NAMES[outage.source]
  const usage = outage.usage
  const figures = usage
    ? [
        `Requests today: ${count(usage.callsToday)}${usage.capPerDay === null ? '' : ` of ${count(usage.capPerDay)}`}.`,
        usage.throttledUntil ? `Asked to wait until ${when(usage.throttledUntil)}.` : '',
        usage.errorsLastHour.length > 0
          ? `Errors in the last hour: ${chainErrorsText(usage.errorsLastHour)}.`
          : 'No error in the last hour.',
        usage.failingAddressCount > 0
          ? `${count(usage.failingAddressCount)} address(es) failing on their own.`
          : '',
      ].filter(Boolean)
    : []
  return {
    subject: `Chain source down: no look has succeeded for ${outage.alertAfterMinutes} minutes`,
    element: (
      <ShopEmail shop={shop} preview={`Payments are not being detected on ${source}`}>
        <Heading style={styles.heading}>Payments are not being detected</Heading>
        <Text style={styles.text}>
          {`No look at the watched orders on ${source} (${outage.origin}) has succeeded ${
            outage.since ? `since ${when(outage.since)}` : 'since the payment worker started'
          }. Until one does, no payment is detected: buyers who pay see nothing happen on their payment page.`}
        </Text>
        {figures.map((line) => (
          <Text key={line} style={styles.text}>
            {line}
          </Text>
        ))}
        <Text style={styles.text}>{likelyCause(outage)}</Text>
        <Section style={{ margin: '16px 0' }}>
          <Button href={`${shop.publicUrl}/admin/dashboard`} style={styles.button}>
            Open the dashboard
          </Button>
        </Section>
        <Text style={styles.muted}>
          You get this once per outage; the dashboard shows when a look succeeds again.
        </Text>
      </ShopEmail>
    ),
  }
}
