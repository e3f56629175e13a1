/**
 * EUR per BSV. Test mode uses the fixed rate; live mode asks CoinGecko and CoinPaprika together
 * and caches the answer for RATE_CACHE_SECONDS. A rate outside RATE_MIN_EUR..RATE_MAX_EUR is
 * not used, and two sources that disagree by more than RATE_MAX_SPREAD stop pricing: the
 * caller gets an error rather than a book sold for one satoshi (a source answering 1e12) or
 * for an impossible amount (1e-9). One good source is enough when the other is down.
 */

export class RateUnavailableError extends Error {
  constructor(readonly causes: string[]) {
    super('The BSV price is not available right now. Please try again in a minute.')
    this.name = 'RateUnavailableError'
  }
}

export type RateSource = { name: string; fetchRate: () => Promise<number> }

/** The shop's rate settings (RATE_*, FIXED_RATE_EUR, COINGECKO_URL, COINPAPRIKA_URL). */
export type RateSettings = {
  rateSource: 'fixed' | 'live'
  fixedRateEUR: number
  coingeckoUrl: string
  coinpaprikaUrl: string
  rateCacheSeconds: number
  rateMinEUR: number
  rateMaxEUR: number
  rateMaxSpread: number
}

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
  settings: Pick<RateSettings, 'coingeckoUrl' | 'coinpaprikaUrl'>,
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

/** Why a rate cannot price an order, or null when it is within the bounds. */
function outOfBounds(rate: number, settings: RateSettings): string | null {
  if (rate >= settings.rateMinEUR && rate <= settings.rateMaxEUR) return null
  return `${rate} EUR/BSV is outside ${settings.rateMinEUR}..${settings.rateMaxEUR} (RATE_MIN_EUR, RATE_MAX_EUR)`
}

export function createRateProvider(
  settings: RateSettings,
  now: () => number = Date.now,
): RateProvider {
  if (settings.rateSource === 'fixed') {
    const problem = outOfBounds(settings.fixedRateEUR, settings)
    return {
      getRate: async () => {
        if (problem) throw new RateUnavailableError([`fixed: ${problem}`])
        return settings.fixedRateEUR
      },
    }
  }
  const sources = liveRateSources(settings)
  let cached: { rate: number; at: number } | undefined
  let inFlight: Promise<number> | undefined

  const refresh = async () => {
    const causes: string[] = []
    const answers: { name: string; rate: number }[] = []
    const settled = await Promise.allSettled(sources.map((source) => source.fetchRate()))
    settled.forEach((result, i) => {
      const { name } = sources[i]!
      if (result.status === 'rejected') {
        const reason = result.reason as unknown
        causes.push(`${name}: ${reason instanceof Error ? reason.message : String(reason)}`)
        return
      }
      const problem = outOfBounds(result.value, settings)
      if (problem) causes.push(`${name}: ${problem}`)
      else answers.push({ name, rate: result.value })
    })
    if (answers.length === 0) throw new RateUnavailableError(causes)
    const rates = answers.map((a) => a.rate)
    const spread = (Math.max(...rates) - Math.min(...rates)) / Math.min(...rates)
    if (spread > settings.rateMaxSpread) {
      throw new RateUnavailableError([
        ...causes,
        `the sources disagree by ${(spread * 100).toFixed(1)} % (${answers
          .map((a) => `${a.name} ${a.rate}`)
          .join(', ')}; RATE_MAX_SPREAD ${settings.rateMaxSpread * 100} %)`,
      ])
    }
    // The first source in order of preference that answered well.
    const rate = answers[0]!.rate
    cached = { rate, at: now() }
    return rate
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
    settings.rateMinEUR,
    settings.rateMaxEUR,
    settings.rateMaxSpread,
  ])
  if (!shared || shared.key !== key) shared = { key, provider: createRateProvider(settings) }
  return shared.provider
}
