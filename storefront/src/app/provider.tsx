import type { ReactNode } from 'react'
import { SWRConfig } from 'swr'

/** App-wide providers: SWR with the storefront's defaults. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <SWRConfig
      value={{ revalidateOnFocus: false, shouldRetryOnError: false, dedupingInterval: 5000 }}
    >
      {children}
    </SWRConfig>
  )
}
