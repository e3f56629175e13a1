import type { ReactNode } from 'react'
import { SWRConfig } from 'swr'

/**
 * Answers the server put in the page for the first screen (cms/src/server/storefrontPage.ts),
 * keyed by their API path: the screen paints with them at once and SWR refreshes them as usual.
 */
export function initialAnswers(doc: Document = document): Record<string, unknown> {
  const text = doc.getElementById('shop-data')?.textContent
  if (!text) return {}
  try {
    const answers = JSON.parse(text) as unknown
    return answers && typeof answers === 'object' ? (answers as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const fallback = typeof document === 'undefined' ? {} : initialAnswers()

/** App-wide providers: SWR with the storefront's defaults and the page's first answers. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <SWRConfig
      value={{
        revalidateOnFocus: false,
        shouldRetryOnError: false,
        dedupingInterval: 5000,
        fallback,
      }}
    >
      {children}
    </SWRConfig>
  )
}
