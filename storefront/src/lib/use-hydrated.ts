import { useSyncExternalStore } from 'react'

const subscribe = () => () => undefined

/**
 * False while the page is HTML the server drew (and while React takes it over), true once React
 * runs it. A button whose work is JavaScript's is drawn disabled until then, so a tap before the
 * app arrived is not silently lost (decision 015).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
