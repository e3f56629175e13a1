import type { Payload, PayloadRequest } from 'payload'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'

export { settlesInGroups } from '../../db/engine'
import { runInWriterScope } from '../../db/sqlite-client'

/**
 * Runs one unit of the worker's work (a pass, the work a push asks for) as one writer: a write
 * Payload makes beside a transaction the unit opened joins it instead of waiting for it (on
 * SQLite, decision 008; nothing changes on MongoDB).
 */
export const asOneWorkUnit = <T>(work: () => T): T => runInWriterScope(work)

/**
 * Runs `work` in one database transaction: the writes it makes with the request it is given
 * commit together or not at all. Given a request already in a transaction, it joins it.
 */
export async function inOneTransaction<T>(
  payload: Payload,
  work: (req: PayloadRequest) => Promise<T>,
  req?: PayloadRequest,
): Promise<T> {
  if (req) return work(req)
  const own = await createLocalReq({}, payload)
  const started = await initTransaction(own)
  try {
    const result = await work(own)
    if (started) await commitTransaction(own)
    return result
  } catch (error) {
    if (started) await killTransaction(own)
    throw error
  }
}
