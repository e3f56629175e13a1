import type { TimelineItem } from '@shop/domain'
import useSWR from 'swr'

import { PageData } from '@/components/ui/PageData'
import { PageHeader } from '@/components/ui/PageHeader'
import { LoadingState } from '@/components/ui/StatusMessage'

import { getTimeline, timelineKey } from '../api/get-timeline'
import '../updates.css'

const statusLabel = { completed: 'Completed', upcoming: 'Upcoming' } as const

/** The milestones in order, each with its date and whether it is reached. */
function Timeline({ milestones }: { milestones: TimelineItem[] }) {
  return (
    <ol className="timeline">
      {milestones.map((item) => (
        <li key={item.id} className={`timeline__item timeline__item--${item.status}`}>
          <span className="timeline__dot" aria-hidden="true" />
          <div className="card timeline__card">
            <div className="timeline__meta">
              <p className="timeline__date">{item.date}</p>
              <span
                className={
                  item.status === 'completed' ? 'badge badge--success' : 'badge badge--upcoming'
                }
              >
                {statusLabel[item.status]}
              </span>
            </div>
            <h2 className="timeline__title">{item.title}</h2>
            <p className="timeline__description">{item.description}</p>
          </div>
        </li>
      ))}
    </ol>
  )
}

/** /updates: the project's milestones as a timeline, and the newsletter to come. */
export function UpdatesRoute() {
  const timeline = useSWR(timelineKey, getTimeline)

  return (
    <>
      <title>Updates · Dual Vote</title>
      <PageHeader eyebrow="Roadmap" title="Project Updates">
        <p>
          Where the framework stands and what comes next, from 2025 to the third quarter of 2027.
        </p>
      </PageHeader>
      <div className="container page narrow">
        <PageData
          result={timeline}
          loading={
            <div className="timeline-loading">
              <LoadingState label="Loading milestones…" />
            </div>
          }
        >
          {(milestones) => <Timeline milestones={milestones} />}
        </PageData>
        <aside className="card newsletter-note" aria-labelledby="newsletter-title">
          <h2 id="newsletter-title">Newsletter</h2>
          <p>
            A newsletter will come later, so that you can follow each milestone as it lands. Until
            then, this page is updated whenever one is reached.
          </p>
        </aside>
      </div>
    </>
  )
}

export const Component = UpdatesRoute
