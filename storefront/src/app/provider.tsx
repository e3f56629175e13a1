import { useRef, useState } from 'react'
import type { ReactNode } from 'react'
import { SWRConfig } from 'swr'
import type { Middleware } from 'swr'

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

/**
 * The page's answers are as fresh as the page: the first screen that paints with one does not
 * ask the API for it again on mounting (every first view asked twice, once in the page and once
 * from the browser). Any later mount revalidates as usual.
 */
export function freshFromPage(answers: Record<string, unknown>): Middleware {
  const unused = new Set(Object.keys(answers))
  return (useSWRNext) => (key, fetcher, config) => {
    const fromPage = useRef(typeof key === 'string' && unused.delete(key)).current
    return useSWRNext(key, fetcher, fromPage ? { ...config, revalidateOnMount: false } : config)
  }
}

const pageAnswers = typeof document === 'undefined' ? {} : initialAnswers()

/**
 * App-wide providers: SWR with the storefront's defaults and the first answers, the page's in
 * the browser, the ones the server renders the page with there (`entry-server.tsx`): both
 * sides draw the first screen from the same answers, so hydration finds what it draws.
 */
export function AppProvider({
  children,
  answers = pageAnswers,
}: {
  children: ReactNode
  answers?: Record<string, unknown>
}) {
  const [value] = useState(() => ({
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    dedupingInterval: 5000,
    fallback: answers,
    use: [freshFromPage(answers)],
  }))
  return <SWRConfig value={value}>{children}</SWRConfig>
}
