import type { Env } from '../../config/env'
import type { ChainOutage } from '../../email/templates'
import type { ChainHealth } from '../../payload-types'
import { originOf } from '../dashboard/getAdminHealth'
import { parseStoredStats } from './chainHealthRow'

export type ChainAlertSettings = Pick<Env, 'chainSource' | 'wocApiUrl' | 'chainAlertMinutes'>

/** The outage the row's last alert was about, as the owner's e-mail and webhook tell it. */
export function chainOutageOf({
  row,
  env,
}: {
  row: ChainHealth | null
  env: ChainAlertSettings
}): ChainOutage {
  const stats = parseStoredStats(row?.stats)
  return {
    source: env.chainSource,
    origin: originOf(env.wocApiUrl),
    since: row?.outageSince ?? null,
    alertAfterMinutes: env.chainAlertMinutes,
    usage: stats && {
      callsToday: stats.callsToday,
      capPerDay: stats.capPerDay,
      throttledUntil: stats.throttledUntil,
      errorsLastHour: stats.errorsLastHour,
      failingAddressCount: stats.failingAddressCount,
    },
  }
}
