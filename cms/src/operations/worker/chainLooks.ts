import type { Payload } from 'payload'

import { countChainLook as countLook } from '../../db/counters'

/** Counts a pass that looked at the chain: the dashboard shows when the last one was. */
export const countChainLook = ({ payload }: { payload: Payload }) => countLook({ payload })
