import { z } from 'zod'

import { FAULT_POINTS } from '../faults'
import { fromRoot } from './paths'
import { parseTrustProxy, type TrustProxy } from './trustProxy'
import { xpubProblem } from '@shop/chain'

/**
 * Every setting of the shop, validated once. `.env.example` documents each one.
 * Test mode is everything that is not NODE_ENV=production: embedded SQLite, generated secret,
 * published test xpub, chain simulator, fixed rate, seeded demo data.
 */

// BIP32 test vector 1, master public key: a published key, so test-mode addresses are reproducible.
export const TEST_XPUB =
  'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8'

const intFrom = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback)
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))

/** An empty setting (`OWNER_EMAIL=` as .env.example has it) means unset. */
const blankIsUnset = <T extends z.ZodType>(inner: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), inner.optional())

/** Where the worker hears of new transactions and blocks (WOC_SOCKET_URL; see `wocSocketUrl`). */
function socketUrlOf(
  e: { WOC_SOCKET_URL?: string; WOC_API_URL?: string; SIMULATOR_PORT: number; BSV_NETWORK: string },
  chainSource: 'simulator' | 'whatsonchain',
): string | undefined {
  if (e.WOC_SOCKET_URL === 'off') return undefined
  if (e.WOC_SOCKET_URL) return e.WOC_SOCKET_URL
  if (e.WOC_API_URL) return undefined
  if (chainSource === 'simulator') return `ws://127.0.0.1:${e.SIMULATOR_PORT}/websocket`
  return e.BSV_NETWORK === 'main'
    ? 'wss://socket-v2.whatsonchain.com/websocket'
    : 'wss://socket-v2-testnet.whatsonchain.com/websocket'
}

/**
 * Where ARC follows payments by txid (ARC_URL; see `arcUrl`): the simulator's stand-in in test
 * mode with the simulator (the one WOC_API_URL names, when it names one), none otherwise unless
 * set; `off` turns it off.
 */
function arcUrlOf(
  e: { ARC_URL?: string; NODE_ENV: string; SIMULATOR_PORT: number; WOC_API_URL?: string },
  chainSource: 'simulator' | 'whatsonchain',
): string | undefined {
  if (e.ARC_URL === 'off') return undefined
  if (e.ARC_URL) return e.ARC_URL.replace(/\/+$/, '')
  if (e.NODE_ENV !== 'production' && chainSource === 'simulator') {
    const simulator = e.WOC_API_URL?.match(/^(.*)\/v1\/bsv\/(main|test)\/?$/)?.[1]
    return simulator ? `${simulator}/arc` : `http://127.0.0.1:${e.SIMULATOR_PORT}/arc`
  }
  return undefined
}

/** The path of the shop's receiver of ARC's callbacks (api/arc-callback.ts). */
export const ARC_CALLBACK_PATH = '/api/arc/callback'

function arcCallbackUrlOf(
  setting: string | undefined,
  arcUrl: string | undefined,
  publicUrl: string,
): string | undefined {
  if (!arcUrl || setting === 'off') return undefined
  return setting ?? `${publicUrl}${ARC_CALLBACK_PATH}`
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

function isSocketUrl(value: string): boolean {
  try {
    return ['ws:', 'wss:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intFrom(3000, 1),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalText,
  TRUST_PROXY: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  // Unset: the SQLite file shop.db in DATA_DIR, beside the uploaded files.
  DATABASE_URI: z.string().optional(),
  DB_PUSH: z.enum(['true', 'false']).optional(),
  PAYLOAD_SECRET: optionalText,
  DATA_DIR: z.string().default('data'),
  MEDIA_DIR: optionalText,
  FILES_DIR: optionalText,
  DOCUMENTS_DIR: optionalText,
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: blankIsUnset(
    z
      .string()
      .trim()
      .url('S3_ENDPOINT must be an http(s) URL.')
      .refine((v) => /^https?:\/\//.test(v), 'S3_ENDPOINT must be an http(s) URL.'),
  ),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),

  BSV_NETWORK: z.enum(['main', 'test']).default('main'),
  BSV_XPUB: optionalText,
  CHAIN_SOURCE: z.enum(['simulator', 'whatsonchain']).optional(),
  WOC_API_URL: optionalText,
  WOC_API_KEY: optionalText,
  WOC_SOCKET_URL: optionalText,
  ARC_URL: optionalText,
  ARC_API_KEY: optionalText,
  ARC_MAX_REQUESTS_PER_SECOND: z.coerce.number().positive().optional(),
  ARC_CALLBACK_URL: optionalText,
  SIMULATOR_PORT: intFrom(3100, 1),
  EXPLORER_TX_URL: z.string().default('https://whatsonchain.com/tx/'),

  RATE_SOURCE: z.enum(['fixed', 'live']).optional(),
  FIXED_RATE_EUR: z.coerce.number().positive().default(40),
  COINGECKO_URL: z.string().default('https://api.coingecko.com/api/v3'),
  COINPAPRIKA_URL: z.string().default('https://api.coinpaprika.com/v1'),
  RATE_CACHE_SECONDS: intFrom(60, 1),
  RATE_MIN_EUR: z.coerce.number().positive().default(1),
  RATE_MAX_EUR: z.coerce.number().positive().default(10_000),
  RATE_MAX_SPREAD: z.coerce.number().positive().max(1).default(0.1),

  CONFIRMATIONS_REQUIRED: intFrom(1, 0),
  ORDER_EXPIRY_MINUTES: intFrom(20, 1),
  PAYMENT_GRACE_SECONDS: intFrom(60, 0),
  // A payment no index knows is marked invalid only after this long (decision 018).
  PAYMENT_MISSING_MINUTES: intFrom(30, 0),
  MONITORING_WINDOW_HOURS: intFrom(24, 0),
  LATE_WATCH_DAYS: intFrom(30, 0),
  WALLET_GAP_LIMIT: intFrom(20, 1),
  DOWNLOAD_TOKEN_TTL_HOURS: intFrom(72, 1),
  DOWNLOAD_MAX_USES: intFrom(5, 1),
  WOC_MAX_REQUESTS_PER_SECOND: z.coerce.number().positive().optional(),
  // WhatsOnChain's daily request cap of the plan in use (0: not known); the dashboard shows it.
  WOC_DAILY_CAP: intFrom(0, 0),
  WORKER_FAST_POLL_MS: intFrom(500, 50),
  WORKER_SLOW_POLL_MS: intFrom(10_000, 100),
  WORKER_LEASE_SECONDS: intFrom(10, 2),
  CHAIN_ALERT_MINUTES: intFrom(15, 1),
  // The first retry of a failed e-mail or webhook waits this long; each next one twice as long.
  EMAIL_RETRY_BASE_MS: intFrom(2000, 10),
  WEBHOOK_RETRY_BASE_MS: intFrom(10_000, 10),
  // Test hook: the worker exits right after recording payments, or just before delivering.
  WORKER_CRASH_AT: z.enum(FAULT_POINTS).optional(),
  ORDER_CREATE_RATE_LIMIT: intFrom(30, 1),
  // Checkouts at work at once: those that reach the store together share one commit.
  CHECKOUT_CONCURRENCY: intFrom(32, 1),
  CHECKOUT_QUEUE: intFrom(100, 0),
  CHECKOUT_MAX_WAIT_MS: intFrom(4000, 1),
  MAX_OPEN_ORDERS_PER_CLIENT: intFrom(5, 1),
  MAX_OPEN_ORDERS_PER_EMAIL: intFrom(3, 1),
  EMAILS_PER_ADDRESS_PER_HOUR: intFrom(5, 1),
  DOWNLOAD_RATE_LIMIT: intFrom(30, 1),
  LINK_RESENDS_PER_ADDRESS_PER_HOUR: intFrom(3, 1),
  MAX_UPLOAD_MB: intFrom(50, 1),
  CMS_ANONYMOUS_BODY_KB: intFrom(64, 1),

  SMTP_HOST: optionalText,
  EMAIL_DELIVERY: z.enum(['smtp', 'off']).default('smtp'),
  SMTP_PORT: intFrom(587, 1),
  SMTP_USER: optionalText,
  SMTP_PASS: optionalText,
  SMTP_FROM: z.string().default('Book Shop <shop@localhost>'),
  SHOP_NAME: z.string().trim().min(1).default('Dual Vote Framework'),
  SUPPORT_EMAIL: blankIsUnset(z.string().trim().email('SUPPORT_EMAIL must be an e-mail address.')),
  OWNER_EMAIL: blankIsUnset(z.string().trim().email('OWNER_EMAIL must be an e-mail address.')),
  WEBHOOK_URL: blankIsUnset(
    z
      .string()
      .trim()
      .url('WEBHOOK_URL must be an http(s) URL.')
      .refine((v) => /^https?:\/\//.test(v), 'WEBHOOK_URL must be an http(s) URL.'),
  ),
  WEBHOOK_SECRET: optionalText,

  DEMO_ADMIN_EMAIL: z.string().email().default('admin@example.com'),
  DEMO_ADMIN_PASSWORD: optionalText,
  SEED: z.enum(['auto', 'never']).default('auto'),
})

/** Every setting's name: .env.example documents each (config/env-example.test.ts). */
export const SETTING_NAMES = Object.keys(schema.shape)

type RawSettings = Omit<z.infer<typeof schema>, 'DATABASE_URI'> & { DATABASE_URI: string }

/** The raw settings with their defaults that depend on others (the database in DATA_DIR). */
const withDerivedDefaults = (e: z.infer<typeof schema>): RawSettings => ({
  ...e,
  DATABASE_URI: e.DATABASE_URI ?? `file:${e.DATA_DIR.replace(/\/+$/, '')}/shop.db`,
})

/** What the raw settings cannot be together; each problem is one line of the start-up error. */
function settingProblems(e: RawSettings, { isBuild }: { isBuild: boolean }): string[] {
  const isProduction = e.NODE_ENV === 'production'
  const problems: string[] = []
  if (e.WEBHOOK_URL && (!e.WEBHOOK_SECRET || e.WEBHOOK_SECRET.length < 16))
    problems.push(
      'WEBHOOK_SECRET (16+ random characters) is required with WEBHOOK_URL: it signs every delivery.',
    )
  // `next build` runs with NODE_ENV=production but needs no secrets: it only compiles.
  if (isProduction && !isBuild) problems.push(...productionProblems(e))
  if (e.STORAGE === 's3' && (!e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY))
    problems.push(
      'STORAGE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT for a provider other than AWS).',
    )
  const trustProxy = parseTrustProxy(e.TRUST_PROXY)
  if (typeof trustProxy === 'object' && !Array.isArray(trustProxy))
    problems.push(trustProxy.problem)
  if (e.RATE_MIN_EUR >= e.RATE_MAX_EUR) problems.push('RATE_MIN_EUR must be below RATE_MAX_EUR.')
  if (e.WOC_SOCKET_URL && e.WOC_SOCKET_URL !== 'off' && !isSocketUrl(e.WOC_SOCKET_URL))
    problems.push('WOC_SOCKET_URL must be a ws:// or wss:// address, or off.')
  if (e.ARC_URL && e.ARC_URL !== 'off' && !isHttpUrl(e.ARC_URL))
    problems.push('ARC_URL must be an http:// or https:// address, or off.')
  if (e.ARC_CALLBACK_URL && e.ARC_CALLBACK_URL !== 'off' && !isHttpUrl(e.ARC_CALLBACK_URL))
    problems.push('ARC_CALLBACK_URL must be an http:// or https:// address, or off.')
  if (e.BSV_XPUB) {
    const problem = xpubProblem(e.BSV_XPUB)
    if (problem) problems.push(problem)
  }
  return problems
}

function productionProblems(e: RawSettings): string[] {
  const problems: string[] = []
  if (!e.PAYLOAD_SECRET)
    problems.push('PAYLOAD_SECRET is required in production (32+ random characters).')
  else if (e.PAYLOAD_SECRET.length < 32)
    problems.push('PAYLOAD_SECRET must be at least 32 characters.')
  if (!e.BSV_XPUB)
    problems.push("BSV_XPUB is required in production (the owner's extended public key).")
  else if (e.BSV_XPUB === TEST_XPUB)
    problems.push('BSV_XPUB must not be the published test key in production.')
  if (e.CHAIN_SOURCE !== 'whatsonchain')
    problems.push(
      'CHAIN_SOURCE=whatsonchain is required in production (the simulator is for test mode).',
    )
  if (e.RATE_SOURCE === 'fixed') problems.push('RATE_SOURCE=fixed is not allowed in production.')
  if (!e.SMTP_HOST && e.EMAIL_DELIVERY !== 'off')
    problems.push(
      'SMTP_HOST is required in production: buyers get their download links and the owner the alerts by e-mail. To run without e-mail on purpose, set EMAIL_DELIVERY=off (the admin then shows a warning).',
    )
  if (!e.PUBLIC_URL) problems.push('PUBLIC_URL is required in production (used in e-mailed links).')
  return problems
}

/** The settings object the shop reads, made from the checked raw settings. */
function toSettings(e: RawSettings) {
  const isProduction = e.NODE_ENV === 'production'
  const engine = databaseEngineOf(e.DATABASE_URI)
  const dataDir = fromRoot(e.DATA_DIR)
  const chainSource = e.CHAIN_SOURCE ?? (isProduction ? 'whatsonchain' : 'simulator')
  const arcUrl = arcUrlOf(e, chainSource)
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    /** Who may tell the shop a client's address (X-Forwarded-For): nobody unless set. */
    trustProxy: parseTrustProxy(e.TRUST_PROXY) as TrustProxy,
    logLevel: e.LOG_LEVEL,
    databaseUri: resolveDatabaseUri(e.DATABASE_URI),
    databaseEngine: engine,
    /**
     * Test mode pushes the schema (SQLite or PostgreSQL) on start; only one process should (the
     * web process). Production never pushes: it applies the engine's migrations at start.
     */
    dbPush: !isProduction && e.DB_PUSH !== 'false',
    payloadSecret: e.PAYLOAD_SECRET,
    dataDir,
    mediaDir: e.MEDIA_DIR ? fromRoot(e.MEDIA_DIR) : `${dataDir}/media`,
    filesDir: e.FILES_DIR ? fromRoot(e.FILES_DIR) : `${dataDir}/files`,
    documentsDir: e.DOCUMENTS_DIR ? fromRoot(e.DOCUMENTS_DIR) : `${dataDir}/documents`,
    bsvNetwork: e.BSV_NETWORK,
    bsvXpub: e.BSV_XPUB ?? TEST_XPUB,
    chainSource,
    /** In test mode the real WhatsOnChain client talks to the local simulator. */
    wocApiUrl: (
      e.WOC_API_URL ??
      (chainSource === 'simulator'
        ? `http://127.0.0.1:${e.SIMULATOR_PORT}/v1/bsv/${e.BSV_NETWORK}`
        : `https://api.whatsonchain.com/v1/bsv/${e.BSV_NETWORK}`)
    ).replace(/\/$/, ''),
    wocApiKey: e.WOC_API_KEY,
    /**
     * WhatsOnChain's push stream (chain/src/feed.ts), or undefined for polling alone: the
     * simulator's in test mode, WoC's own (Sockets V2) with its default API, none with another
     * WOC_API_URL unless set; `off` turns it off.
     */
    wocSocketUrl: socketUrlOf(e, chainSource),
    /**
     * ARC (chain/src/arc), following each payment by txid beside the chain source, or undefined
     * for none: the simulator's stand-in in test mode with the simulator, none in production
     * unless set; `off` turns it off anywhere.
     */
    arcUrl,
    /** ARC's Bearer key (a secret: never logged). */
    arcApiKey: e.ARC_API_KEY,
    /**
     * Where ARC posts each followed payment's status changes (ARC_CALLBACK_URL; the shop's own
     * receiver, PUBLIC_URL/api/arc/callback, unless set), or undefined: no ARC, or `off`.
     */
    arcCallbackUrl: arcCallbackUrlOf(e.ARC_CALLBACK_URL, arcUrl, publicUrl),
    /** Requests per second to ARC: 50 against the simulator's stand-in, 10 otherwise. */
    arcMaxRequestsPerSecond:
      e.ARC_MAX_REQUESTS_PER_SECOND ?? (!e.ARC_URL && arcUrl !== undefined ? 50 : 10),
    simulatorPort: e.SIMULATOR_PORT,
    explorerTxUrl: e.EXPLORER_TX_URL,
    rateSource: e.RATE_SOURCE ?? (isProduction ? 'live' : 'fixed'),
    fixedRateEUR: e.FIXED_RATE_EUR,
    coingeckoUrl: e.COINGECKO_URL.replace(/\/$/, ''),
    coinpaprikaUrl: e.COINPAPRIKA_URL.replace(/\/$/, ''),
    rateCacheSeconds: e.RATE_CACHE_SECONDS,
    /** Bounds of a believable EUR per BSV rate; outside them no order is priced. */
    rateMinEUR: e.RATE_MIN_EUR,
    rateMaxEUR: e.RATE_MAX_EUR,
    /** Largest share by which two rate sources may disagree (0.1 = 10 %). */
    rateMaxSpread: e.RATE_MAX_SPREAD,
    confirmationsRequired: e.CONFIRMATIONS_REQUIRED,
    orderExpiryMinutes: e.ORDER_EXPIRY_MINUTES,
    /**
     * After expiry, how long a payment still counts as on time (it may have been broadcast in
     * the last moment and not yet reached the chain source).
     */
    paymentGraceSeconds: e.PAYMENT_GRACE_SECONDS,
    /**
     * How long a recorded payment must be absent from every index, across several full looks,
     * before it counts as dropped (a conflicting spend of its inputs counts at once).
     */
    paymentMissingMinutes: e.PAYMENT_MISSING_MINUTES,
    /** The close watch after expiry: a late payment shows within minutes. */
    monitoringWindowHours: e.MONITORING_WINDOW_HOURS,
    /** After it, expired and settled orders are still looked at, less and less often, this long. */
    lateWatchDays: e.LATE_WATCH_DAYS,
    /** The gap limit the owner's wallet scans (20 in ElectrumSV): the dashboard warns before it. */
    walletGapLimit: e.WALLET_GAP_LIMIT,
    downloadTokenTtlHours: e.DOWNLOAD_TOKEN_TTL_HOURS,
    downloadMaxUses: e.DOWNLOAD_MAX_USES,
    /** Requests per second to WhatsOnChain: 3 without a key (the free tier), 10 with one, 50 for the simulator. */
    wocMaxRequestsPerSecond:
      e.WOC_MAX_REQUESTS_PER_SECOND ?? (chainSource === 'simulator' ? 50 : e.WOC_API_KEY ? 10 : 3),
    /** WhatsOnChain's daily request cap for the plan in use, or undefined when not known. */
    wocDailyCap: e.WOC_DAILY_CAP > 0 ? e.WOC_DAILY_CAP : undefined,
    /** Poll interval for orders younger than 15 minutes, and for older ones. */
    workerFastPollMs: e.WORKER_FAST_POLL_MS,
    workerSlowPollMs: e.WORKER_SLOW_POLL_MS,
    /** One worker runs at a time; a standby takes over this long after the active one dies. */
    workerLeaseSeconds: e.WORKER_LEASE_SECONDS,
    /** The owner is alerted once no look at the watched orders has succeeded for this long. */
    chainAlertMinutes: e.CHAIN_ALERT_MINUTES,
    /** The first retry delay of an e-mail job (then doubling, 16 retries: about 36 hours). */
    emailRetryBaseMs: e.EMAIL_RETRY_BASE_MS,
    /** The first retry delay of a webhook job (then doubling, 10 retries: about 3 hours). */
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    /** Test hook (never in production): where the worker exits on purpose. */
    workerCrashAt: isProduction ? undefined : e.WORKER_CRASH_AT,
    /** Order creations allowed per client per minute. */
    orderCreateRateLimit: e.ORDER_CREATE_RATE_LIMIT,
    /** Checkout's admission control (server/admission.ts). */
    checkout: {
      concurrency: e.CHECKOUT_CONCURRENCY,
      queue: e.CHECKOUT_QUEUE,
      maxWaitMs: e.CHECKOUT_MAX_WAIT_MS,
    },
    /** Unpaid, unexpired orders one client (or one e-mail address) may hold at once. */
    maxOpenOrdersPerClient: e.MAX_OPEN_ORDERS_PER_CLIENT,
    maxOpenOrdersPerEmail: e.MAX_OPEN_ORDERS_PER_EMAIL,
    /** "Order created" e-mails one address may receive in an hour. */
    emailsPerAddressPerHour: e.EMAILS_PER_ADDRESS_PER_HOUR,
    /** Download link requests (and asks for new links) allowed per client per minute: tokens cannot be probed at speed. */
    downloadRateLimit: e.DOWNLOAD_RATE_LIMIT,
    /** Requests for new download links one e-mail address may make in an hour (/resend-link). */
    linkResendsPerAddressPerHour: e.LINK_RESENDS_PER_ADDRESS_PER_HOUR,
    /** The largest upload (a book file) a signed-in editor or admin may send. */
    maxUploadMb: e.MAX_UPLOAD_MB,
    /** The largest body /cms/api reads without a staff session (sign-in, password reset). */
    cmsAnonymousBodyKb: e.CMS_ANONYMOUS_BODY_KB,
    /**
     * How e-mail leaves the shop: through SMTP, logged only (test mode without SMTP_HOST), or off
     * (production run on purpose without e-mail: messages wait in the outbox, the admin warns).
     */
    emailDelivery: (e.EMAIL_DELIVERY === 'off' ? 'off' : e.SMTP_HOST ? 'smtp' : 'log') as
      'smtp' | 'log' | 'off',
    smtp: {
      host: e.SMTP_HOST,
      port: e.SMTP_PORT,
      user: e.SMTP_USER,
      pass: e.SMTP_PASS,
      from: e.SMTP_FROM,
    },
    /** Where the shop's alerts go (an order paid, a payment to settle, the chain source down); none when unset. */
    ownerEmail: e.OWNER_EMAIL,
    /** The shop's name in e-mails, and where buyers write for help (the sender's address unless set). */
    shopName: e.SHOP_NAME,
    supportEmail: e.SUPPORT_EMAIL ?? /<([^>]+)>/.exec(e.SMTP_FROM)?.[1] ?? e.SMTP_FROM.trim(),
    /** Where the same events are posted as signed JSON (BTCPay-style webhook); none when unset. */
    webhook: e.WEBHOOK_URL ? { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET! } : undefined,
    demoAdmin: { email: e.DEMO_ADMIN_EMAIL, password: e.DEMO_ADMIN_PASSWORD },
    seed: e.SEED,
    /**
     * Where uploads live: the local directories above, or one S3-compatible bucket (covers under
     * media/, books under files/, documents under documents/).
     */
    storage: storageOf(e),
  }
}

function storageOf(e: RawSettings):
  | { kind: 'local' }
  | {
      kind: 's3'
      bucket: string
      region: string
      endpoint: string | undefined
      accessKeyId: string
      secretAccessKey: string
      forcePathStyle: boolean
    } {
  if (e.STORAGE !== 's3') return { kind: 'local' }
  return {
    kind: 's3',
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
  }
}

/**
 * The settings, checked and shaped in one schema: each raw variable's default and bounds above,
 * the rules between them (`settingProblems`), then the object the shop reads (`toSettings`).
 */
const settingsSchema = (options: { isBuild: boolean }) =>
  schema
    .transform(withDerivedDefaults)
    .superRefine((e, ctx) => {
      for (const message of settingProblems(e, options)) ctx.addIssue({ code: 'custom', message })
      if (databaseEngineOf(e.DATABASE_URI) === 'sqlite' && !e.DATABASE_URI.startsWith('file:'))
        ctx.addIssue({
          code: 'custom',
          message:
            'DATABASE_URI must be a postgres:// or mongodb:// URI, or a file: path for SQLite.',
        })
    })
    .transform(toSettings)

export type Env = z.output<ReturnType<typeof settingsSchema>>

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'EnvError'
  }
}

/** The database engine a DATABASE_URI selects: its scheme, SQLite for a file: path. */
export function databaseEngineOf(uri: string): 'sqlite' | 'postgres' | 'mongodb' {
  if (/^postgres(ql)?:\/\//.test(uri)) return 'postgres'
  if (/^mongodb(\+srv)?:\/\//.test(uri)) return 'mongodb'
  return 'sqlite'
}

function resolveDatabaseUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri
  const file = uri.slice('file:'.length)
  return `file:${fromRoot(file)}`
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = settingsSchema({
    isBuild: source.NEXT_PHASE === 'phase-production-build',
  }).safeParse(source)
  if (!parsed.success) {
    throw new EnvError(
      parsed.error.issues.map((issue) =>
        // The rules between settings (settingProblems) are whole sentences of their own.
        issue.code === 'custom' && issue.path.length === 0
          ? issue.message
          : `${issue.path.join('.') || 'settings'}: ${issue.message}`,
      ),
    )
  }
  return parsed.data
}
