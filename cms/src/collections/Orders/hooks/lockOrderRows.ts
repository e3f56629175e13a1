import type { CollectionBeforeOperationHook, Where } from 'payload'

import { lockOrderRows as lockRows } from '../../../db/orderRowLock'
import { slugs } from '../../slugs'

/**
 * Every update of orders, through every door (the spec's API, /cms, the Local API, the worker),
 * takes the rows it changes before Payload reads them (cms/src/db/orderRowLock.ts): a change
 * committed by another writer meanwhile is read and kept, never written over. A bulk update
 * (`where`) takes the rows its filter matches now; Payload's own read that follows sees the
 * filter's answer after any writer it waited for (a claim on a status another request just
 * changed then matches nothing).
 */
export const lockOrderRows: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  // Payload names both an update by id and a bulk update 'update': the id tells them apart.
  if (operation !== 'update' || !req.transactionID) return args
  const { id, where } = args as { id?: string | number; where?: Where }
  await lockRows({
    payload: req.payload,
    req,
    ids: async () => (id !== undefined ? [id] : matching(req, where)),
  })
  return args
}

/** The orders a bulk update's filter matches, read in its transaction. */
async function matching(
  req: Parameters<CollectionBeforeOperationHook>[0]['req'],
  where: Where | undefined,
) {
  const found = await req.payload.db.find({
    collection: slugs.orders,
    where: where ?? {},
    pagination: false,
    limit: 0,
    req,
    select: { id: true },
  })
  return found.docs.map((doc) => doc.id as string)
}
