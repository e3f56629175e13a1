import { paths } from '@/config/paths'

/** What the download page says of a link (its Download-Link-State header), or 'ok'. */
export type DownloadLinkState = 'ok' | 'expired' | 'used-up' | 'unknown' | 'missing'

const REFUSALS: readonly string[] = ['expired', 'used-up', 'unknown', 'missing']

/**
 * Whether a download link still works, without spending a download: a HEAD of the link's page
 * (not a JSON call, so not through api-client). Null when it cannot be told (offline, a server
 * error): the page then offers the link as it is.
 */
export async function getDownloadLinkState(token: string): Promise<DownloadLinkState | null> {
  try {
    const response = await fetch(paths.downloadPdf(token), {
      method: 'HEAD',
      credentials: 'same-origin',
    })
    if (response.ok) return 'ok'
    const state = response.headers.get('Download-Link-State') ?? ''
    return REFUSALS.includes(state) ? (state as DownloadLinkState) : null
  } catch {
    return null
  }
}
