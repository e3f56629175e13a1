import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'

import { fromRoot } from '@shop/cms/process'
import { TS_NODE_ARGS, WORKER_TS_NODE_ARGS } from '@shop/cms/testing'

/** Starts a TypeScript entry point in its own Node process with the test's settings. */
export function spawnTs(
  entry: string,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const args = entry.endsWith('payment-worker/src/main.ts') ? WORKER_TS_NODE_ARGS : TS_NODE_ARGS
  const child = spawn(process.execPath, [...args, entry], {
    cwd: fromRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  return { child, output: () => output, exited }
}

/** The settings of the current (test) process's shop, for a child that shares its database. */
export function sharedShopEnv(): Record<string, string> {
  const keys = [
    'NODE_ENV',
    'DATA_DIR',
    'DATABASE_URI',
    'PAYLOAD_SECRET',
    'CHAIN_SOURCE',
    'BSV_NETWORK',
    'WOC_API_URL',
    'RATE_SOURCE',
    'FIXED_RATE_EUR',
    'CONFIRMATIONS_REQUIRED',
    'PAYMENT_GRACE_SECONDS',
    'WORKER_FAST_POLL_MS',
    'WORKER_SLOW_POLL_MS',
    'WOC_MAX_REQUESTS_PER_SECOND',
    'ORDER_CREATE_RATE_LIMIT',
    'MAX_OPEN_ORDERS_PER_CLIENT',
    'MAX_OPEN_ORDERS_PER_EMAIL',
    'EMAILS_PER_ADDRESS_PER_HOUR',
    'EMAIL_RETRY_BASE_MS',
    'WEBHOOK_RETRY_BASE_MS',
    'SMTP_HOST',
    'SMTP_PORT',
  ]
  return Object.fromEntries(
    keys.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]),
  )
}
