/**
 * The payment worker process (`npm start` runs it beside the web process): validates the
 * settings, starts Payload with the shop's config, and runs the loop until SIGTERM/SIGINT.
 */
import { arcCallbackRegistration, armFault, loadEmailRenderer } from '@shop/cms/engine'
import { holdProcessOpen, runProcess, settingsOrExit } from '@shop/cms/process'
import { createLogger, prettyLogs } from '@shop/cms/process'
import type { Env } from '@shop/cms/process'
import type { ArcCallbackRegistration } from '@shop/chain'
import { createChainSource } from '@shop/chain'
import os from 'node:os'

import { heartbeatWriter } from './heartbeat'
import { createLeaseHolder } from './lease'
import { startPaymentWorker } from './worker'

async function main() {
  const release = holdProcessOpen()
  const env = settingsOrExit('The payment worker')
  const logger = createLogger(env.logLevel, 'worker', { pretty: prettyLogs(env) })
  armCrash(env.workerCrashAt, logger)
  // One at a time: concurrent dynamic imports of Payload's graph deadlocked Node 20's loader.
  const { getPayload } = await import('payload')
  const { default: config } = await import('@shop/cms/payload-config')
  const payload = await getPayload({ config })
  // The worker sends the e-mails: the renderer loads now, not in the pass that finds a payment
  // (the web process never loads it).
  if (env.emailDelivery !== 'off') await loadEmailRenderer()
  // The chain source, chosen by the settings in one place (chain/src/source.ts).
  const source = chainSourceOf(env, arcCallbackRegistration(payload, env))
  release()
  const lease = createLeaseHolder({
    payload,
    holder: `${os.hostname()}:${process.pid}`,
    ttlMs: env.workerLeaseSeconds * 1000,
    logger,
  })
  const worker = startPaymentWorker({
    payload,
    chain: source.chain,
    txSource: source.txSource,
    logger,
    settings: env,
    lease,
    onHeartbeat: heartbeatWriter(env.dataDir),
  })
  // Push where the source offers it, polling always (chain/src/feed.ts); the stream slows the
  // looks only while it carries mempool transactions (worker/trust.ts).
  const pushUrl = source.describe.push
  const feed = source.connectFeed?.({
    onTransaction: (tx) => worker.pushed.transaction(tx),
    onBlock: ({ height, header }) => worker.pushed.block(height, header),
    onError: (error) => logger.error({ err: error }, 'a pushed message could not be handled'),
    onStatus: ({ connected, error }) => {
      worker.pushed.connected(connected)
      if (connected) logger.info({ url: pushUrl }, 'chain push stream connected')
      else logger.warn({ url: pushUrl, error }, 'chain push stream down; polling carries on alone')
    },
  })
  logger.info(
    {
      chain: source.describe.source,
      url: source.describe.url,
      push: pushUrl,
      arc: source.describe.arc,
      arcCallback: source.describe.arcCallback,
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
 * The chain source and, when ARC_URL is set, ARC beside it, from the settings; ARC's callbacks
 * registered with every submission unless ARC_CALLBACK_URL is off.
 */
function chainSourceOf(env: Env, callback: ArcCallbackRegistration | undefined) {
  return createChainSource({
    kind: env.chainSource,
    apiUrl: env.wocApiUrl,
    apiKey: env.wocApiKey,
    maxRequestsPerSecond: env.wocMaxRequestsPerSecond,
    dailyCap: env.wocDailyCap,
    socketUrl: env.wocSocketUrl,
    ...(env.arcUrl
      ? {
          arc: {
            url: env.arcUrl,
            apiKey: env.arcApiKey,
            maxRequestsPerSecond: env.arcMaxRequestsPerSecond,
            callback,
          },
        }
      : {}),
  })
}

/**
 * The fault tests' crash points: with WORKER_CRASH_AT (a test-mode setting, never set in
 * production) the worker dies at that fault point with exit code 86, and the test checks what a
 * restart repairs.
 */
function armCrash(at: Env['workerCrashAt'], logger: ReturnType<typeof createLogger>) {
  if (!at) return
  armFault(at, (orderId) => {
    logger.warn({ orderId, at }, 'test hook: crashing at a fault point')
    process.exit(86)
  })
}

runProcess('The payment worker', main)
