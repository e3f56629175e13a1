import type { ReactNode } from 'react'
import { isAvailableLink } from '@shop/domain'
import './ui.css'

type AvailableLinkProps = {
  /** The link from the CMS: '#' or empty means it is not published yet. */
  href: string | null | undefined
  children: ReactNode
  /** What a disabled link says instead (for example 'Link Coming Soon'). */
  disabledLabel?: ReactNode
  className?: string
  /** Words only screen readers hear, after the visible text: which paper, which language. */
  srContext?: string
  download?: boolean
}

const isExternal = (href: string) => /^https?:\/\//i.test(href)

/**
 * A link that may not exist yet. An unpublished link ('#') is rendered as a disabled,
 * non-focusable element, never as an anchor, so nobody clicks into nowhere.
 */
export function AvailableLink({
  href,
  children,
  disabledLabel,
  className = 'button button--ghost',
  srContext,
  download,
}: AvailableLinkProps) {
  if (!isAvailableLink(href)) {
    return (
      <span className={`${className} is-disabled`} role="link" aria-disabled="true">
        {disabledLabel ?? children}
        {srContext ? <span className="visually-hidden">{` ${srContext}`}</span> : null}
      </span>
    )
  }
  const external = isExternal(href)
  return (
    <a
      className={className}
      href={href}
      download={download || undefined}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {children}
      {srContext ? <span className="visually-hidden">{` ${srContext}`}</span> : null}
      {external ? <span className="visually-hidden"> (opens in a new tab)</span> : null}
    </a>
  )
}
