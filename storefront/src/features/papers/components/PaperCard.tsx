import type { Paper } from '@shop/domain'

import { AvailableLink } from '@/components/ui/AvailableLink'

const languages = [
  { key: 'en', label: 'English' },
  { key: 'it', label: 'Italian' },
] as const

/** One white paper: title, description and, per language, the PDF and its timestamp certificate. */
export function PaperCard({ paper, number }: { paper: Paper; number: number }) {
  return (
    <article className="card paper-card">
      <p className="paper-card__number">Paper {number}</p>
      <h2 className="paper-card__title">{paper.title}</h2>
      <p className="paper-card__description">{paper.description}</p>
      <dl className="paper-card__versions">
        {languages.map(({ key, label }) => (
          <div className="paper-card__version" key={key}>
            <dt>{label}</dt>
            <dd>
              <AvailableLink
                href={paper.versions[key].link}
                className="button button--primary button--small"
                srContext={`of ${paper.title} (${label})`}
                disabledLabel="Coming soon"
              >
                Download PDF
              </AvailableLink>
              <AvailableLink
                href={paper.versions[key].certificate_link}
                className="button button--ghost button--small"
                srContext={`of ${paper.title} (${label})`}
                disabledLabel="Certificate soon"
              >
                Certificate
              </AvailableLink>
            </dd>
          </div>
        ))}
      </dl>
    </article>
  )
}
