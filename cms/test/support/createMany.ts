/**
 * Child process for the two-process SQLite test: creates `count` timeline items through
 * Payload's Local API on the database given by DATABASE_URI, then exits.
 */
const count = Number(process.argv[2] ?? 300)
const tag = process.argv[3] ?? 'writer'

// One at a time: concurrent dynamic imports of Payload's graph deadlocked Node 20's loader.
const { getPayload } = await import('payload')
const { default: config } = await import('../../src/payload.config')
const payload = await getPayload({ config })
let failures = 0
const concurrency = 4
let next = 0
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++
      try {
        await payload.create({
          collection: 'timeline',
          data: {
            date: 'Q1 2030',
            title: `${tag}-${i}`,
            description: 'load',
            status: 'upcoming',
            order: i,
          },
        })
      } catch (error) {
        failures++
        if (failures <= 5) console.error(`${tag}-${i} failed: ${(error as Error).message}`)
      }
    }
  }),
)
console.log(JSON.stringify({ tag, created: count - failures, failures }))
await payload.db.destroy?.()
process.exit(0)
