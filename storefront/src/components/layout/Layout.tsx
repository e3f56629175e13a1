import { Suspense } from 'react'
import { Outlet, useLocation } from 'react-router-dom'

import { Footer } from './Footer'
import { Header } from './Header'
import { RouteErrorBoundary } from './RouteErrorBoundary'
import { ScrollToTop } from './ScrollToTop'

/**
 * The public site's frame: skip link, header, the page and footer. Toasts are mounted by the
 * screens that raise them (checkout, pay), so the other pages do not download react-toastify.
 */
export function Layout() {
  const { pathname } = useLocation()
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ScrollToTop />
      <Header />
      <main id="main" tabIndex={-1}>
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
    </>
  )
}
