import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import { ADDRESS_INDEX_COUNTER } from '../../db/counters'

/** The address index the next order checkout stores will take (0 before the first). */
export async function nextAddressIndex({ payload }: { payload: Payload }): Promise<number> {
  const found = await payload.find({
    collection: slugs.counters,
    where: { name: { equals: ADDRESS_INDEX_COUNTER } },
    select: { value: true },
    depth: 0,
    limit: 1,
    pagination: false,
  })
  // Checkout adds one to the counter and takes the value before it.
  return Number((found.docs[0] as { value?: number } | undefined)?.value ?? 0)
}
