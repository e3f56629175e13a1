import type { Tool } from '@shop/domain'
import { isAvailableLink } from '@shop/domain'
import useSWR from 'swr'

import { AvailableLink } from '@/components/ui/AvailableLink'
import { PageData } from '@/components/ui/PageData'
import { PageHeader } from '@/components/ui/PageHeader'
import { LoadingState } from '@/components/ui/StatusMessage'

import { getTools, toolsKey } from '../api/get-tools'
import '../proofs.css'

const languageNames: Record<string, string> = {
  en: 'English',
  it: 'Italian',
  fr: 'French',
  es: 'Spanish',
}

function ToolCard({ tool }: { tool: Tool }) {
  return (
    <article className="card tool-card">
      <h2 className="tool-card__name">{tool.name}</h2>
      <p className="tool-card__description">{tool.description}</p>
      {tool.manuals.length > 0 ? (
        <div className="tool-card__manuals">
          <h3>Manuals</h3>
          <ul>
            {tool.manuals.map((manual) => {
              const language = languageNames[manual.language] ?? manual.label
              return (
                <li key={manual.language} lang={manual.language}>
                  <AvailableLink
                    href={manual.link}
                    className="button button--ghost button--small"
                    srContext={`manual of the ${tool.name}${isAvailableLink(manual.link) ? '' : ', coming soon'}`}
                    disabledLabel={`${language} · Link Coming Soon`}
                  >
                    {language}
                  </AvailableLink>
                </li>
              )
            })}
          </ul>
        </div>
      ) : null}
      <div className="tool-card__action">
        <AvailableLink
          href={tool.link}
          className="button button--primary"
          disabledLabel="Link Coming Soon"
        >
          Open {tool.name}
        </AvailableLink>
      </div>
    </article>
  )
}

/** /proofs: the tools that verify the framework's claims on the public ledger. */
export function ProofsRoute() {
  const tools = useSWR(toolsKey, getTools)

  return (
    <>
      <title>Proofs and Tools · Dual Vote</title>
      <PageHeader eyebrow="Proofs" title="Tools and Proofs">
        <p>
          Don&apos;t take our word for it. These tools let you look up every timestamp, certificate
          and vote on the public ledger yourself, and run a dual vote in your own group.
        </p>
      </PageHeader>
      <div className="container page">
        <PageData result={tools} loading={<LoadingState label="Loading tools…" />}>
          {(list) => (
            <ul className="tool-list">
              {list.map((tool) => (
                <li key={tool.name}>
                  <ToolCard tool={tool} />
                </li>
              ))}
            </ul>
          )}
        </PageData>
      </div>
    </>
  )
}

export const Component = ProofsRoute
