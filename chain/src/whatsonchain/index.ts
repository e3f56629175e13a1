import type { ChainSource } from '../types'
import { addressMethods } from './addresses'
import { blockMethods } from './blocks'
import type { WhatsOnChainOptions } from './http'
import { createRequestContext } from './http'
import { transactionMethods } from './transactions'

export type { WhatsOnChainOptions } from './http'

/**
 * The WhatsOnChain API client (the real chain source; in test mode the same client talks to the
 * local simulator). It reads everything and trusts nothing once:
 * - At most `maxRequestsPerSecond` requests begin in any second (3 without a key).
 * - Every history is read to its end. A bulk answer holds at most 20 confirmed items (100
 *   unconfirmed, 1,000 of each from /addresses/history/all), and WhatsOnChain's docs do not say
 *   whether the cap counts per address or per request: an address cut with a `nextPageToken`
 *   is read on through the single-address endpoint with that token, an address at the cap is
 *   read again alone, and when a whole answer reaches its cap, the addresses that look complete
 *   are asked again where the cap is larger (history/all, then one by one).
 * - An address whose entry carries an error (WhatsOnChain writes one per address) is left out
 *   and reported; the rest of the batch comes back.
 * - A lookup's 404 (/tx/hash, /tx/{txid}/hex) is retried with backoff: WhatsOnChain answers 404
 *   while a just-mined transaction moves between its mempool and block indexes, and when a
 *   lookup fails inside it. A transaction is 'unknown' only after the retries.
 * - A 429's Retry-After is honoured: no request goes inside the window, whichever call it
 *   belongs to. A window longer than `maxRetryAfterMs` (the daily cap) fails calls at once.
 * - 5xx answers and failed connections are retried with backoff.
 * - The API key goes in `Authorization` (what WhatsOnChain's server and TAAL's docs read) and in
 *   `woc-api-key` (what older clients send).
 * - Block headers (getBlockHeader) are read field by field, bits from WoC's hex, and cached by
 *   hash, and by height once settled. A merkle proof (getMerkleProof) is WoC's TSC proof turned
 *   into a BUMP, its block's height read from the header of its `target`; neither is trusted
 *   here: proof.ts checks them.
 * - Calls are counted against the daily cap and the per-second limit; stats() shows them with
 *   the last hour's errors and the addresses that keep failing.
 *
 * One module per part: http.ts (requests, retries, the Retry-After window), spacer.ts (the
 * per-second budget), stats.ts (the health record), and one per endpoint family: addresses.ts,
 * transactions.ts, blocks.ts. Each family's methods are built from the one request context.
 */

export function createWhatsOnChainClient(options: WhatsOnChainOptions): ChainSource &
  Required<
    Pick<
      ChainSource,
      'getAddressHistoriesDetailed' | 'getSpentBy' | 'stats' | 'getBlockHeader' | 'getMerkleProof'
    >
  > & {
    baseUrl: string
  } {
  const http = createRequestContext(options)
  const blocks = blockMethods(http)
  return {
    baseUrl: http.baseUrl,
    requestsPerSecond: http.limitPerSecond,
    waitForRoom: http.waitForRoom,
    ...blocks,
    ...addressMethods(http),
    ...transactionMethods(http, blocks),
    stats: () => http.calls.snapshot(http.throttledUntil()),
  }
}
