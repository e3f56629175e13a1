import type { ReactNode } from 'react'
import useSWR from 'swr'

import type { AdminSettings } from '../api/dashboard'
import { getSettings } from '../api/dashboard'
import { HealthList } from '../components/HealthList'
import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import { paths } from '@/config/paths'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'
import '../admin-dashboard.css'

type Row = [label: string, value: ReactNode, setting?: string]

const yesNo = (set: boolean) => (set ? 'set' : 'not set')
const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`

/** The settings, grouped as the owner thinks of them, each with the variable that sets it. */
export function settingsSections(s: AdminSettings): { title: string; rows: Row[] }[] {
  const rate =
    'eur' in s.payment.rate
      ? `€${s.payment.rate.eur.toFixed(2)} per BSV now`
      : `No rate now: ${s.payment.rate.error}`
  return [
    {
      title: 'Shop',
      rows: [
        ['Name', s.shop.name, 'SHOP_NAME'],
        ['Public address', s.shop.publicUrl, 'PUBLIC_URL'],
        ['Support e-mail', s.shop.supportEmail, 'SUPPORT_EMAIL'],
        ['Mode', s.shop.testMode ? 'Test mode (no real money)' : 'Production', 'NODE_ENV'],
        ['Uploads stored', s.shop.storage === 's3' ? 'S3 bucket' : 'Local disk', 'STORAGE'],
      ],
    },
    {
      title: 'Payments',
      rows: [
        ['Network', s.payment.network === 'main' ? 'BSV mainnet' : 'BSV testnet', 'BSV_NETWORK'],
        ['Wallet (extended public key)', <code key="xpub">{s.payment.xpub}</code>, 'BSV_XPUB'],
        [
          'Chain source',
          `${s.payment.chainSource === 'simulator' ? 'Test-mode simulator' : 'WhatsOnChain'} (${s.payment.chainOrigin}), API key ${yesNo(s.payment.chainApiKeySet)}`,
          'WOC_API_URL, WOC_API_KEY',
        ],
        [
          'Confirmations for PAID',
          String(s.payment.confirmationsRequired),
          'CONFIRMATIONS_REQUIRED',
        ],
        ['Time to pay', minutes(s.payment.orderExpiryMinutes), 'ORDER_EXPIRY_MINUTES'],
        ['Grace after expiry', `${s.payment.paymentGraceSeconds} seconds`, 'PAYMENT_GRACE_SECONDS'],
        ['Late payments watched for', `${s.payment.lateWatchDays} days`, 'LATE_WATCH_DAYS'],
        ['Wallet gap limit', String(s.payment.walletGapLimit), 'WALLET_GAP_LIMIT'],
        [
          'BSV rate',
          `${s.payment.rateSource === 'live' ? 'Live (CoinGecko, CoinPaprika)' : 'Fixed'}, kept ${s.payment.rateCacheSeconds} s, accepted between €${s.payment.rateBoundsEUR.min} and €${s.payment.rateBoundsEUR.max}. ${rate}`,
          'RATE_SOURCE',
        ],
      ],
    },
    {
      title: 'E-mail and alerts',
      rows: [
        [
          'Delivery',
          s.email.delivery === 'smtp'
            ? `SMTP ${s.email.smtpHost ?? ''}:${s.email.smtpPort}, user ${yesNo(s.email.smtpUserSet)}, password ${yesNo(s.email.smtpPasswordSet)}`
            : s.email.delivery === 'log'
              ? 'Logged only (test mode without SMTP)'
              : 'Turned off',
          'SMTP_HOST, EMAIL_DELIVERY',
        ],
        ['Sender', s.email.from, 'SMTP_FROM'],
        ['Owner alerts to', s.email.ownerAlertsTo ?? 'nobody (not set)', 'OWNER_EMAIL'],
        ['Webhook', s.email.webhookOrigin ?? 'not set', 'WEBHOOK_URL'],
      ],
    },
    {
      title: 'Downloads',
      rows: [
        ['Link valid for', `${s.downloads.linkHours} hours`, 'DOWNLOAD_TOKEN_TTL_HOURS'],
        ['Downloads per link', String(s.downloads.maxUses), 'DOWNLOAD_MAX_USES'],
      ],
    },
  ]
}

/** The settings in force, read-only: they live in the shop's environment (.env). */
export function SettingsRoute() {
  useAdminTitle('Settings')
  const settings = useSWR('admin/settings', getSettings)
  useSignOutOn401(settings.error)

  return (
    <section className="admin-page">
      <AdminPageHeader
        title="Settings"
        back={{ to: paths.admin.dashboard, label: 'Dashboard' }}
        here="Settings"
      >
        <p className="muted">
          The settings in force. They come from the shop&apos;s environment (the .env file or the
          container&apos;s settings): change them there and restart the shop. Passwords and keys are
          never shown, only whether they are set.
        </p>
      </AdminPageHeader>
      {settings.error ? (
        <p className="admin-alert admin-alert--error" role="alert">
          {settings.error instanceof Error
            ? settings.error.message
            : 'Failed to load the settings.'}
        </p>
      ) : !settings.data ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <section className="card admin-panel" aria-labelledby="settings-health">
            <h2 id="settings-health">Health</h2>
            <HealthList health={settings.data.health} />
          </section>
          {settingsSections(settings.data).map((section) => (
            <section
              key={section.title}
              className="card admin-panel"
              aria-labelledby={`settings-${section.title}`}
            >
              <h2 id={`settings-${section.title}`}>{section.title}</h2>
              <dl className="admin-settings">
                {section.rows.map(([label, value, setting]) => (
                  <div key={label} className="admin-settings__row">
                    <dt>{label}</dt>
                    <dd>
                      {value}
                      {setting ? <span className="admin-settings__var">{setting}</span> : null}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </>
      )}
    </section>
  )
}
