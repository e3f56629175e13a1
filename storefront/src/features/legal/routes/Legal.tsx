import { useEffect } from 'react'
import { Link, useLocation } from 'react-router-dom'
import useSWR from 'swr'

import { PageData } from '@/components/ui/PageData'
import { PageHeader } from '@/components/ui/PageHeader'
import { LoadingState } from '@/components/ui/StatusMessage'
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

/** The terms and the privacy policy, each under its anchor, with a table of contents. */
function LegalTexts({ termsHtml, privacyHtml }: { termsHtml: string; privacyHtml: string }) {
  return (
    <>
      <nav className="legal-toc" aria-label="On this page">
        <a href="#terms">Terms of Use</a>
        <a href="#privacy">Privacy Policy</a>
      </nav>
      {/* The HTML is produced by the CMS's own rich-text converter from editors' content. */}
      <section id="terms" className="card legal-section" aria-labelledby="terms-title">
        <h2 id="terms-title">Terms of Use</h2>
        <div className="legal-text" dangerouslySetInnerHTML={{ __html: termsHtml }} />
      </section>
      <section id="privacy" className="card legal-section" aria-labelledby="privacy-title">
        <h2 id="privacy-title">Privacy Policy</h2>
        <div className="legal-text" dangerouslySetInnerHTML={{ __html: privacyHtml }} />
      </section>
    </>
  )
}

/** /legal: terms of use and privacy policy from the CMS, with #terms and #privacy anchors. */
export function LegalRoute() {
  const legal = useSWR(legalKey, getLegal)
  useScrollToHash(Boolean(legal.data))

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
      <div className="container page narrow">
        <PageData result={legal} loading={<LoadingState label="Loading legal texts…" />}>
          {(texts) => <LegalTexts termsHtml={texts.termsHtml} privacyHtml={texts.privacyHtml} />}
        </PageData>
      </div>
    </>
  )
}

export const Component = LegalRoute
