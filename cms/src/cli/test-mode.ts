/**
 * Dev tools against the running shop in test mode:
 *   npm run pay -- <orderId> [amountBSV]   pays the order (the remaining amount by default)
 *   npm run mine                           mines one block
 * Both go through the web process's test-mode API, so they use the same wallet and simulator.
 */
import { loadEnv } from '../config/env'

async function main() {
  const env = loadEnv()
  const [command, orderId, amountBSV] = process.argv.slice(2)
  // The shop this tool talks to: PUBLIC_URL (http://localhost:PORT in test mode).
  const base = env.publicUrl
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok) throw new Error(String(json.error ?? `HTTP ${response.status}`))
    return json
  }
  if (command === 'pay') {
    if (!orderId) throw new Error('Usage: npm run pay -- <orderId> [amountBSV]')
    const { txid } = await post(
      `/api/test-mode/orders/${orderId}/pay`,
      amountBSV ? { amountBSV } : {},
    )
    console.warn(`paid order ${orderId}: txid ${String(txid)}`)
  } else if (command === 'mine') {
    const { height } = await post('/api/test-mode/mine', {})
    console.warn(`mined a block: height ${String(height)}`)
  } else {
    throw new Error('Usage: cli.ts pay <orderId> [amountBSV] | cli.ts mine')
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message)
  process.exit(1)
})
