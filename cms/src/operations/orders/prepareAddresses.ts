import { prepareOrderAddresses } from '@shop/chain'
import type { Payload } from 'payload'

import type { Env } from '../../config/env'
import { highestAddressIndex } from '../dashboard/getAdminStats'

/**
 * Starts deriving the payment addresses the next orders will take, on the address thread
 * (`prepareOrderAddresses`): a rush right after a start finds them ready. Each checkout moves the
 * range on (`createOrder`).
 */
export async function prepareNextOrderAddresses({
  payload,
  env,
}: {
  payload: Payload
  env: Pick<Env, 'bsvXpub' | 'bsvNetwork'>
}): Promise<void> {
  const highest = await highestAddressIndex(payload)
  void prepareOrderAddresses({
    xpub: env.bsvXpub,
    network: env.bsvNetwork,
    from: (highest ?? -1) + 1,
  })
}
