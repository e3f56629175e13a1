import { RateUnavailableError, rateProviderFor } from '@shop/chain'
import type { AdminSettings } from '@shop/domain'
import type { Payload } from 'payload'

import type { Env } from '../../config/env'
import { getAdminHealth, originOf } from './getAdminHealth'

/** Enough of an extended public key to recognise the wallet, not enough to list its addresses. */
export const shortXpub = (xpub: string) => `${xpub.slice(0, 8)}…${xpub.slice(-6)}`

/**
 * The settings in force, read-only (they come from the environment: changing one is a restart),
 * with the health of what they point at. Secrets never leave: a password or key is "set" or not.
 */
export async function getAdminSettings({
  payload,
  env,
}: {
  payload: Payload
  env: Env
}): Promise<AdminSettings> {
  const [health, rate] = await Promise.all([
    getAdminHealth({ payload, env }),
    rateProviderFor(env)
      .getRate()
      .then((eur) => ({ eur }))
      .catch((error: unknown) => {
        if (error instanceof RateUnavailableError) return { error: error.message }
        throw error
      }),
  ])
  return {
    shop: {
      name: env.shopName,
      publicUrl: env.publicUrl,
      supportEmail: env.supportEmail,
      testMode: !env.isProduction,
      storage: env.storage.kind,
    },
    payment: {
      network: env.bsvNetwork,
      xpub: shortXpub(env.bsvXpub),
      chainSource: env.chainSource,
      chainOrigin: originOf(env.wocApiUrl),
      chainApiKeySet: Boolean(env.wocApiKey),
      confirmationsRequired: env.confirmationsRequired,
      orderExpiryMinutes: env.orderExpiryMinutes,
      paymentGraceSeconds: env.paymentGraceSeconds,
      lateWatchDays: env.lateWatchDays,
      walletGapLimit: env.walletGapLimit,
      rateSource: env.rateSource,
      rateCacheSeconds: env.rateCacheSeconds,
      rateBoundsEUR: { min: env.rateMinEUR, max: env.rateMaxEUR },
      rate,
    },
    email: {
      delivery: env.emailDelivery,
      smtpHost: env.smtp.host ?? null,
      smtpPort: env.smtp.port,
      smtpUserSet: Boolean(env.smtp.user),
      smtpPasswordSet: Boolean(env.smtp.pass),
      from: env.smtp.from,
      ownerAlertsTo: env.ownerEmail ?? null,
      webhookOrigin: env.webhook ? originOf(env.webhook.url) : null,
    },
    downloads: { linkHours: env.downloadTokenTtlHours, maxUses: env.downloadMaxUses },
    health,
  }
}
