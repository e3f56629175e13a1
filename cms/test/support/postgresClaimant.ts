/**
 * Child process for the two-process PostgreSQL test: connects to DATABASE_URI (schema already
 * there), prints `ready`, waits for a line on stdin (the time to start at), then races the parent for the same rows
 * (copies, a lease, a rate-limit window, download uses, the last copy at checkout) and prints
 * what it got as one JSON line.
 */
import readline from 'node:readline'

const [productId, lastCopyId, leaseName, tokenHash] = process.argv.slice(2)

// One at a time: concurrent dynamic imports of Payload's graph deadlocked Node 20's loader.
const { getPayload } = await import('payload')
const { default: config } = await import('../../src/payload.config')
const { claimRaces, warmPool } = await import('./postgresRaces')
const payload = await getPayload({ config })
await warmPool(payload)

console.log('ready')
const lines = readline.createInterface({ input: process.stdin })
const startAt = Number(await new Promise<string>((resolve) => lines.once('line', resolve)))
lines.close()

const got = await claimRaces({
  payload,
  who: 'child',
  productId: Number(productId),
  lastCopyId: Number(lastCopyId),
  leaseName: leaseName!,
  tokenHash: tokenHash!,
  startAt,
})
console.log(JSON.stringify(got))
process.exit(0)
