import type { ReactNode } from 'react'
import type { SWRResponse } from 'swr'

import { ErrorState } from './StatusMessage'

/**
 * What a page shows of data it loads (from the CMS, through SWR): `loading` until the first
 * answer, the failure with a way to try again, then `children` given the data. Data already
 * shown stays while it is refreshed.
 */
export function PageData<Data>({
  result,
  loading,
  children,
}: {
  result: Pick<SWRResponse<Data>, 'data' | 'error' | 'isLoading' | 'isValidating' | 'mutate'>
  loading: ReactNode
  children: (data: Data) => ReactNode
}) {
  const { data, error, isLoading, isValidating, mutate } = result
  if (!data && (isLoading || isValidating)) return loading
  if (error || !data) {
    return <ErrorState message="Failed to load page data." onRetry={() => void mutate()} />
  }
  return children(data)
}
