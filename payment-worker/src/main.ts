/**
 * The payment worker process (`npm start` runs it beside the web process): validates the
 * settings, starts Payload with the shop's config, and runs the loop until SIGTERM/SIGINT.
 */
import { loadEmailRenderer } from '@shop/cms/engine'
import { holdProcessOpen, runProcess, settingsOrExit } from '@shop/cms/process'
import { createLogger, prettyLogs } from '@shop/cms/process'
import type { Env } from '@shop/cms/process'
import { connectChainFeed, createWhatsOnChainClient } from '@shop/chain'
import os from 'node:os'

import { heartbeatWriter } from './heartbeat'
import { createLeaseHolder } from './lease'
import type { CrashPoints } from './worker'
import { startPaymentWorker } from './worker'

async function main() {
  const release = holdProcessOpen()
  const env = settingsOrExit('The payment worker')
  const logger = createLogger(env.logLevel, 'worker', { pretty: prettyLogs(env) })
  // One at a time: concurrent dynamic imports of Payload's graph deadlocked Node 20's loader.
  const { getPayload } = await import('payload')
  const { default: config } = await import('@shop/cms/payload-config')
  const payload = await getPayload({ config })
  // The worker sends the e-mails: the renderer loads now, not in the pass that finds a payment
  // (the web process never loads it).
  if (env.emailDelivery !== 'off') await loadEmailRenderer()
  const chain = createWhatsOnChainClient({
    baseUrl: env.wocApiUrl,
    apiKey: env.wocApiKey,
    maxRequestsPerSecond: env.wocMaxRequestsPerSecond,
    dailyCap: env.wocDailyCap,
  })
  release()
  const lease = createLeaseHolder({
    payload,
    holder: `${os.hostname()}:${process.pid}`,
    ttlMs: env.workerLeaseSeconds * 1000,
    logger,
  })
  const worker = startPaymentWorker({
    payload,
    chain,
    logger,
    settings: env,
    lease,
    onHeartbeat: heartbeatWriter(env.dataDir),
    crashAt: crashPoints(env.workerCrashAt, logger),
  })
  // Push where WhatsOnChain offers it, polling always (chain/src/feed.ts). Logged without its
  // query: a key an owner puts there never reaches the logs.
  const pushUrl = env.wocSocketUrl ? withoutQuery(env.wocSocketUrl) : 'off'
  const feed = env.wocSocketUrl
    ? connectChainFeed({
        url: env.wocSocketUrl,
        onTransaction: (tx) => worker.pushed.transaction(tx),
        onBlock: ({ height }) => worker.pushed.block(height),
        onError: (error) => logger.error({ err: error }, 'a pushed message could not be handled'),
        onStatus: ({ connected, error }) => {
          worker.pushed.connected(connected)
          if (connected) logger.info({ url: pushUrl }, 'chain push stream connected')
          else
            logger.warn({ url: pushUrl, error }, 'chain push stream down; polling carries on alone')
        },
      })
    : undefined
  logger.info(
    {
      chain: env.chainSource,
      url: env.wocApiUrl,
      push: pushUrl,
      confirmations: env.confirmationsRequired,
      pollMs: env.workerFastPollMs,
    },
    'payment worker started',
  )

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'payment worker stopping')
    setTimeout(() => process.exit(1), 10_000).unref()
    feed?.close()
    await worker.stop()
    await payload.db.destroy?.()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

/**
 * The fault tests' crash points: with WORKER_CRASH_AT (a test-mode setting, never set in
 * production) the worker dies there with exit code 86, and the test checks what a restart repairs.
 */
function crashPoints(
  at: Env['workerCrashAt'],
  logger: ReturnType<typeof createLogger>,
): CrashPoints | undefined {
  if (at === 'after-record')
    return {
      afterRecord: (orderId) => {
        logger.warn({ orderId }, 'test hook: crashing after recording payments')
        process.exit(86)
      },
    }
  if (at === 'before-fulfil')
    return {
      beforeFulfil: () => {
        logger.warn('test hook: crashing before fulfilment')
        process.exit(86)
      },
    }
  return undefined
}

function withoutQuery(url: string): string {
  const u = new URL(url)
  return `${u.protocol}//${u.host}${u.pathname}`
}

runProcess('The payment worker', main)
