import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import net from 'node:net'

import { fromRoot } from '../../src/config/paths'
import { TS_NODE_ARGS } from './nodeArgs'
import { waitFor } from './shopApi'

/** A loopback port free now (the process that takes it may still lose a race for it). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

export type WebProcess = {
  url: string
  port: number
  child: ChildProcess
  /** What it printed so far. */
  output: () => string
  stop: () => Promise<void>
}

/**
 * The shop's web process (cms/src/server/main.ts) in a process of its own with only the settings
 * given (`env`, which may use the port chosen for it), resolved once `readyPath` answers 200.
 */
export async function startWebProcess({
  env,
  readyPath = '/healthz',
}: {
  env: (port: number) => Record<string, string>
  readyPath?: string
}): Promise<WebProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, [...TS_NODE_ARGS, fromRoot('cms/src/server/main.ts')], {
    cwd: fromRoot('cms'),
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
      ...env(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
  }
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${output}`)
        return (await fetch(`${url}${readyPath}`).catch(() => null))?.status === 200
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    )
  } catch (error) {
    await stop()
    throw error
  }
  return { url, port, child, output: () => output, stop }
}
