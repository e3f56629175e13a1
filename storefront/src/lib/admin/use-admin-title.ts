import { useEffect } from 'react'

/** The browser tab's title for an admin screen. */
export function useAdminTitle(title: string) {
  useEffect(() => {
    const previous = document.title
    document.title = `${title} · Admin`
    return () => {
      document.title = previous
    }
  }, [title])
}
