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
  /** Extra accessible text, e.g. the paper the link belongs to. */
  ariaLabel?: string
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
  ariaLabel,
  download,
}: AvailableLinkProps) {
  if (!isAvailableLink(href)) {
    return (
      <span
        className={`${className} is-disabled`}
        role="link"
        aria-disabled="true"
        aria-label={ariaLabel ? `${ariaLabel} (not available yet)` : undefined}
      >
        {disabledLabel ?? children}
      </span>
    )
  }
  const external = isExternal(href)
  return (
    <a
      className={className}
      href={href}
      aria-label={ariaLabel}
      download={download || undefined}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {children}
      {external ? <span className="visually-hidden"> (opens in a new tab)</span> : null}
    </a>
  )
}
