import { Forbidden } from 'payload'
import type { CollectionBeforeOperationHook } from 'payload'

export const FIRST_REGISTER_CLOSED =
  'This shop creates its first admin from the command line: run `npm run create-admin` on the server.'

/**
 * In production nobody creates a staff account from outside without being signed in: Payload's
 * "create the first user" door (which creates with access overridden) would otherwise let the
 * first visitor of a fresh shop make themselves its admin, whatever spelling of the path they
 * use. The owner creates the first admin with `npm run create-admin` (the Local API); signed-in
 * admins still add staff through /cms as the collection's access allows.
 */
export function closeFirstRegister({ isProduction }: { isProduction: boolean }) {
  const hook: CollectionBeforeOperationHook = ({ args, operation, req }) => {
    if (!isProduction || operation !== 'create') return args
    if (req.payloadAPI !== 'local' && !req.user) {
      const error = new Forbidden(req.t)
      error.message = FIRST_REGISTER_CLOSED
      throw error
    }
    return args
  }
  return hook
}
