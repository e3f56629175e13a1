import { createArcClient } from './arc'
import type { ArcCallbackRegistration } from './arc'
import type { ChainFeed, ChainFeedOptions } from './feed'
import { connectChainFeed } from './feed'
import type { ChainSource, TransactionSource } from './types'
import { createWhatsOnChainClient } from './whatsonchain'

/**
 * The chain source the shop watches, chosen by its settings in this one place: an adapter per
 * kind, each giving the client for the chain's API and, where it has one, its push stream. The
 * simulator speaks WhatsOnChain's API and push stream, so both kinds use the WhatsOnChain client
 * and feed today; a second, independent source is added here as a kind of its own.
 *
 * Beside it, and independent of it, ARC may follow the payments by txid (`arc`: its own address
 * and key; the simulator serves a stand-in under /arc): the adapter's `txSource`, absent when
 * the settings name no ARC.
 */

export const CHAIN_SOURCE_KINDS = ['simulator', 'whatsonchain'] as const
export type ChainSourceKind = (typeof CHAIN_SOURCE_KINDS)[number]

export type ChainSourceSettings = {
  kind: ChainSourceKind
  /** The API's base, e.g. https://api.whatsonchain.com/v1/bsv/main */
  apiUrl: string
  apiKey?: string
  /** Requests begun in any one second, at most. */
  maxRequestsPerSecond: number
  /** The plan's daily request cap, when known (shown beside the calls made today). */
  dailyCap?: number
  /** The push stream, e.g. wss://socket-v2.whatsonchain.com/websocket; none: polling alone. */
  socketUrl?: string
  /** ARC, following payments by txid: where it is (without /v1), its key, its request limit. */
  arc?: ArcSettings
}

export type ArcSettings = {
  /** e.g. https://arc.taal.com, or the simulator's http://127.0.0.1:3100/arc */
  url: string
  apiKey?: string
  maxRequestsPerSecond: number
  /** Where ARC reports each submitted payment's status changes (none: the worker only asks). */
  callback?: ArcCallbackRegistration
}

/** What the push stream calls: the feed's options without its address. */
export type ChainFeedHandlers = Omit<ChainFeedOptions, 'url'>

/** The source as the logs may show it: addresses without their query (where a key may be). */
export type ChainSourceDescription = {
  source: ChainSourceKind
  url: string
  /** The push stream's address, or 'off' when there is none. */
  push: string
  /** ARC's address, or 'off' when there is none. */
  arc: string
  /** Where ARC's callbacks go, or 'off' when none are registered. */
  arcCallback: string
}

export type ChainSourceAdapter = {
  chain: ChainSource
  /** Connects the push stream (absent when the source has none). */
  connectFeed?: (handlers: ChainFeedHandlers) => ChainFeed
  /** ARC, following payments by txid (absent when the settings name none). */
  txSource?: TransactionSource
  describe: ChainSourceDescription
}

/** An address without its query, fragment or credentials: safe to log. */
export function withoutQuery(url: string): string {
  const u = new URL(url)
  return `${u.protocol}//${u.host}${u.pathname}`
}

/** WhatsOnChain's API and push stream, or the simulator speaking them. */
function whatsOnChainAdapter(settings: ChainSourceSettings): Omit<ChainSourceAdapter, 'describe'> {
  const chain = createWhatsOnChainClient({
    baseUrl: settings.apiUrl,
    apiKey: settings.apiKey,
    maxRequestsPerSecond: settings.maxRequestsPerSecond,
    dailyCap: settings.dailyCap,
  })
  const socketUrl = settings.socketUrl
  return {
    chain,
    ...(socketUrl
      ? {
          connectFeed: (handlers: ChainFeedHandlers) =>
            connectChainFeed({ ...handlers, url: socketUrl }),
        }
      : {}),
  }
}

const ADAPTERS: Record<
  ChainSourceKind,
  (settings: ChainSourceSettings) => Omit<ChainSourceAdapter, 'describe'>
> = {
  simulator: whatsOnChainAdapter,
  whatsonchain: whatsOnChainAdapter,
}

/** What is wrong with the settings, if anything. */
function settingsProblem(settings: ChainSourceSettings): string | undefined {
  if (!Object.hasOwn(ADAPTERS, settings.kind))
    return `Unknown chain source "${String(settings.kind)}": expected ${CHAIN_SOURCE_KINDS.join(' or ')}.`
  if (!hasProtocol(settings.apiUrl, ['http:', 'https:']))
    return 'The chain source API address must be an http:// or https:// address.'
  if (settings.socketUrl !== undefined && !hasProtocol(settings.socketUrl, ['ws:', 'wss:']))
    return 'The push stream address must be a ws:// or wss:// address.'
  if (!(settings.maxRequestsPerSecond > 0))
    return 'The chain source needs a request limit above 0 per second.'
  if (settings.arc !== undefined) {
    if (!hasProtocol(settings.arc.url, ['http:', 'https:']))
      return 'The ARC address must be an http:// or https:// address.'
    if (!(settings.arc.maxRequestsPerSecond > 0))
      return 'ARC needs a request limit above 0 per second.'
  }
  return undefined
}

function hasProtocol(url: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(url).protocol)
  } catch {
    return false
  }
}

/** The chain source the settings name; throws on settings it cannot use. */
export function createChainSource(settings: ChainSourceSettings): ChainSourceAdapter {
  const problem = settingsProblem(settings)
  if (problem) throw new Error(problem)
  const { arc } = settings
  return {
    ...ADAPTERS[settings.kind](settings),
    ...(arc
      ? {
          txSource: createArcClient({
            baseUrl: arc.url,
            apiKey: arc.apiKey,
            maxRequestsPerSecond: arc.maxRequestsPerSecond,
            callback: arc.callback,
          }),
        }
      : {}),
    describe: {
      source: settings.kind,
      url: withoutQuery(settings.apiUrl),
      push: settings.socketUrl ? withoutQuery(settings.socketUrl) : 'off',
      arc: arc ? withoutQuery(arc.url) : 'off',
      arcCallback: arc?.callback ? withoutQuery(arc.callback.url) : 'off',
    },
  }
}
