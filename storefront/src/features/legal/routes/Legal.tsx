import { useEffect } from 'react'
import { Link, useLocation } from 'react-router-dom'
import useSWR from 'swr'

import { PageHeader } from '@/components/ui/PageHeader'
import { ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { getLegal, legalKey } from '../api/get-legal'
import '../legal.css'

/**
 * Scrolls smoothly to the URL's hash (#terms, #privacy) once the texts are on the page: the
 * anchors only exist after the content has loaded, so the browser cannot do it on arrival.
 */
function useScrollToHash(ready: boolean) {
  const { hash } = useLocation()
  useEffect(() => {
    if (!ready || !hash) return
    const target = document.getElementById(decodeURIComponent(hash.slice(1)))
    if (!target) return
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' })
  }, [ready, hash])
}

/** /legal: terms of use and privacy policy from the CMS, with #terms and #privacy anchors. */
export function LegalRoute() {
  const { data, error, isLoading, isValidating, mutate } = useSWR(legalKey, getLegal)
  useScrollToHash(Boolean(data))

  let content
  if (!data && (isLoading || isValidating)) content = <LoadingState label="Loading legal texts…" />
  else if (error || !data) {
    content = <ErrorState message="Failed to load page data." onRetry={() => void mutate()} />
  } else {
    content = (
      <>
        <nav className="legal-toc" aria-label="On this page">
          <a href="#terms">Terms of Use</a>
          <a href="#privacy">Privacy Policy</a>
        </nav>
        {/* The HTML is produced by the CMS's own rich-text converter from editors' content. */}
        <section id="terms" className="card legal-section" aria-labelledby="terms-title">
          <h2 id="terms-title">Terms of Use</h2>
          <div className="legal-text" dangerouslySetInnerHTML={{ __html: data.termsHtml }} />
        </section>
        <section id="privacy" className="card legal-section" aria-labelledby="privacy-title">
          <h2 id="privacy-title">Privacy Policy</h2>
          <div className="legal-text" dangerouslySetInnerHTML={{ __html: data.privacyHtml }} />
        </section>
      </>
    )
  }

  return (
    <>
      <title>Terms and Privacy · Dual Vote</title>
      <PageHeader eyebrow="Legal" title="Terms of Use and Privacy Policy">
        <p>
          <Link to={paths.home}>
            <span aria-hidden="true">←</span> Back to the homepage
          </Link>
        </p>
      </PageHeader>
      <div className="container page narrow">{content}</div>
    </>
  )
}

export const Component = LegalRoute
