/** Child process for the two-process SQLite test: prints how many timeline items exist. */
import { getPayload } from 'payload'

import config from '../../src/payload.config'

const payload = await getPayload({ config })
const titles = (
  await payload.find({
    collection: 'timeline',
    limit: 0,
    pagination: false,
    where: { title: { not_equals: 'schema-0' } },
  })
).docs.map((doc) => doc.title)
console.log(JSON.stringify({ total: titles.length, unique: new Set(titles).size }))
process.exit(0)
