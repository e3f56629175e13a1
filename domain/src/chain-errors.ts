import type { ChainUsage } from './admin-contracts'

/** The chain client's errors by kind, in the owner's words (the dashboard's and the alert's). */
export const CHAIN_ERROR_NAMES: Record<string, string> = {
  throttled: 'throttled answers (429)',
  'daily-cap': 'refusals at the daily cap',
  server: 'server errors (5xx)',
  network: 'network failures',
  'not-found': 'lookups not found (404)',
  address: 'address failures',
  'bad-answer': 'unreadable answers',
}

/**
 * "1,800 refusals at the daily cap, 3 network failures": each kind's count and name, in the
 * order given (a kind without a name shows as itself); empty for no errors.
 */
export function chainErrorsText(errors: ChainUsage['errorsLastHour']): string {
  return errors
    .map((e) => `${e.count.toLocaleString('en-US')} ${CHAIN_ERROR_NAMES[e.kind] ?? e.kind}`)
    .join(', ')
}
