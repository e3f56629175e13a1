import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { AvailableLink } from './AvailableLink'

describe('a link that may not be published yet', () => {
  it.each(['#', ' # ', '', null])('is disabled, not a link, when its value is %j', (href) => {
    render(
      <AvailableLink href={href} disabledLabel="Link Coming Soon">
        Open
      </AvailableLink>,
    )
    const disabled = screen.getByText('Link Coming Soon')
    expect(disabled.tagName).toBe('SPAN')
    expect(disabled).toHaveAttribute('aria-disabled', 'true')
    expect(disabled).not.toHaveAttribute('href')
    expect(disabled).not.toHaveAttribute('tabindex')
    expect(document.querySelector('a')).toBeNull()
  })

  it('is an ordinary link to a file on the shop', () => {
    render(
      <AvailableLink href="/documents/key.pem" download>
        Download
      </AvailableLink>,
    )
    const link = screen.getByRole('link', { name: 'Download' })
    expect(link).toHaveAttribute('href', '/documents/key.pem')
    expect(link).toHaveAttribute('download')
    expect(link).not.toHaveAttribute('target')
  })

  it('opens another site in a new tab, and says so', () => {
    render(<AvailableLink href="https://whatsonchain.com">Explorer</AvailableLink>)
    const link = screen.getByRole('link', { name: /^Explorer\s*\(opens in a new tab\)$/ })
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  })
})
