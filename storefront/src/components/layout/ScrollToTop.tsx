import { useEffect } from 'react'
import { useLocation } from 'react-router-dom'

/** Route changes start at the top of the page (a hash link scrolls to its anchor instead). */
export function ScrollToTop() {
  const { pathname, hash } = useLocation()
  useEffect(() => {
    if (!hash) window.scrollTo({ top: 0, left: 0 })
  }, [pathname, hash])
  return null
}
