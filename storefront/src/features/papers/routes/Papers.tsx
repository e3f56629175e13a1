import type { PapersPage } from '@shop/domain'
import useSWR from 'swr'
import type { SWRResponse } from 'swr'

import { AvailableLink } from '@/components/ui/AvailableLink'
import { PageData } from '@/components/ui/PageData'
import { PageHeader } from '@/components/ui/PageHeader'
import { ErrorState, LoadingState } from '@/components/ui/StatusMessage'

import { getPapers, getPapersPage, papersKey, papersPageKey } from '../api/get-papers'
import { PaperCard } from '../components/PaperCard'
import '../papers.css'

/**
 * The page's introduction, written in the CMS; placeholders of its size while it loads, so the
 * list below does not move when it arrives.
 */
function Introduction({ page }: { page: SWRResponse<PapersPage> }) {
  if (page.data) {
    const { eyebrow, title, text } = page.data.introduction
    return (
      <PageHeader eyebrow={eyebrow} title={title}>
        <p>{text}</p>
      </PageHeader>
    )
  }
  if (page.error) {
    return (
      <header className="page-header">
        <div className="container">
          <ErrorState message="Failed to load page data." onRetry={() => void page.mutate()} />
        </div>
      </header>
    )
  }
  return (
    <header className="page-header" role="status" aria-live="polite">
      <span className="visually-hidden">Loading…</span>
      <div className="container" aria-hidden="true" data-testid="papers-intro-placeholder">
        <div className="papers-intro__placeholder papers-intro__placeholder--eyebrow" />
        <div className="papers-intro__placeholder papers-intro__placeholder--title" />
        <div className="papers-intro__placeholder papers-intro__placeholder--lead" />
      </div>
    </header>
  )
}

/** /papers: the nine papers, the public key to verify their signatures, and the author's links. */
export function PapersRoute() {
  const papers = useSWR(papersKey, getPapers)
  const page = useSWR(papersPageKey, getPapersPage)

  return (
    <>
      <title>White Papers · Dual Vote</title>
      <Introduction page={page} />
      <div className="container page">
        <aside className="card verify-box" aria-labelledby="verify-title">
          <div>
            <h2 id="verify-title">Verify the authors</h2>
            <p className="muted">
              Download the authors&apos; public key to check the signatures on the papers, and
              follow the author for new releases.
            </p>
          </div>
          <div className="verify-box__actions">
            <AvailableLink
              href={page.data?.publicKeyUrl}
              className="button button--primary"
              download
              disabledLabel="Public key coming soon"
            >
              Download public key (.pem)
            </AvailableLink>
            <AvailableLink
              href={page.data?.authorLinksUrl}
              className="button button--ghost"
              disabledLabel="Author links coming soon"
            >
              Author&apos;s social links
            </AvailableLink>
          </div>
        </aside>
        <PageData result={papers} loading={<LoadingState label="Loading papers…" />}>
          {(list) => (
            <ol className="paper-list">
              {list.map((paper, index) => (
                <li key={paper.id}>
                  <PaperCard paper={paper} number={index + 1} />
                </li>
              ))}
            </ol>
          )}
        </PageData>
      </div>
    </>
  )
}

export const Component = PapersRoute
