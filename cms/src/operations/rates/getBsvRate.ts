import type { Env } from '../../config/env'

/**
 * EUR per BSV. Test mode uses the fixed rate; live mode asks CoinGecko, then CoinPaprika, and
 * caches the answer for RATE_CACHE_SECONDS. When no source answers the caller gets an error:
 * a made-up or stale rate would price books wrongly.
 */

export class RateUnavailableError extends Error {
  constructor(readonly causes: string[]) {
    super('The BSV price is not available right now. Please try again in a minute.')
    this.name = 'RateUnavailableError'
  }
}

export type RateSource = { name: string; fetchRate: () => Promise<number> }

type RateSettings = Pick<
  Env,
  'rateSource' | 'fixedRateEUR' | 'coingeckoUrl' | 'coinpaprikaUrl' | 'rateCacheSeconds'
>

const TIMEOUT_MS = 5000

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { accept: 'application/json' },
  })
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return response.json()
}

function positive(value: unknown, source: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new Error(`${source}: no usable EUR price`)
  return value
}

export function liveRateSources(
  settings: Pick<Env, 'coingeckoUrl' | 'coinpaprikaUrl'>,
): RateSource[] {
  return [
    {
      name: 'coingecko',
      fetchRate: async () => {
        const body = (await getJson(
          `${settings.coingeckoUrl}/simple/price?ids=bitcoin-cash-sv&vs_currencies=eur`,
        )) as {
          'bitcoin-cash-sv'?: { eur?: unknown }
        }
        return positive(body?.['bitcoin-cash-sv']?.eur, 'coingecko')
      },
    },
    {
      name: 'coinpaprika',
      fetchRate: async () => {
        const body = (await getJson(
          `${settings.coinpaprikaUrl}/tickers/bsv-bitcoin-sv?quotes=EUR`,
        )) as {
          quotes?: { EUR?: { price?: unknown } }
        }
        return positive(body?.quotes?.EUR?.price, 'coinpaprika')
      },
    },
  ]
}

export type RateProvider = { getRate: () => Promise<number> }

export function createRateProvider(
  settings: RateSettings,
  now: () => number = Date.now,
): RateProvider {
  if (settings.rateSource === 'fixed') return { getRate: async () => settings.fixedRateEUR }
  const sources = liveRateSources(settings)
  let cached: { rate: number; at: number } | undefined
  let inFlight: Promise<number> | undefined

  const refresh = async () => {
    const causes: string[] = []
    for (const source of sources) {
      try {
        const rate = await source.fetchRate()
        cached = { rate, at: now() }
        return rate
      } catch (error) {
        causes.push(`${source.name}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    throw new RateUnavailableError(causes)
  }

  return {
    async getRate() {
      if (cached && now() - cached.at < settings.rateCacheSeconds * 1000) return cached.rate
      inFlight ??= refresh().finally(() => {
        inFlight = undefined
      })
      return inFlight
    },
  }
}

let shared: { key: string; provider: RateProvider } | undefined

/** The process-wide provider for these settings (one cache per process). */
export function rateProviderFor(settings: RateSettings): RateProvider {
  const key = JSON.stringify([
    settings.rateSource,
    settings.fixedRateEUR,
    settings.coingeckoUrl,
    settings.coinpaprikaUrl,
    settings.rateCacheSeconds,
  ])
  if (!shared || shared.key !== key) shared = { key, provider: createRateProvider(settings) }
  return shared.provider
}
