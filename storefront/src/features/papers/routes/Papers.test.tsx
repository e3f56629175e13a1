import type { Paper } from '@shop/domain'
import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { PapersRoute } from './Papers'

const papers: Paper[] = [
  {
    id: 1,
    title: 'The Dual Vote',
    description: 'Both votes defined.',
    versions: {
      en: { link: '/documents/dual-vote-en.pdf', certificate_link: 'https://example.org/cert/1' },
      it: { link: '#', certificate_link: '#' },
    },
  },
]

// Not the seeded texts: the introduction must come from the CMS, not from the code.
const introduction = {
  eyebrow: 'Reading room',
  title: 'Papers an editor named',
  text: 'An introduction an editor wrote.',
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const body =
        url === '/api/papers'
          ? papers
          : {
              introduction,
              publicKeyUrl: '/documents/public-key.pem',
              authorLinksUrl: '#',
            }
      return new Response(JSON.stringify(body), { status: 200 })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
})

const renderPapers = () =>
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter>
        <PapersRoute />
      </MemoryRouter>
    </SWRConfig>,
  )

describe('the papers page', () => {
  it("links published files and shows '#' links disabled", async () => {
    renderPapers()
    const card = within(
      (await screen.findByRole('heading', { name: 'The Dual Vote' })).closest('article')!,
    )
    expect(
      card.getByRole('link', { name: /^Download PDF\s*of The Dual Vote \(English\)$/ }),
    ).toHaveAttribute('href', '/documents/dual-vote-en.pdf')
    expect(
      card.getByRole('link', { name: /^Certificate\s*of The Dual Vote \(English\)/ }),
    ).toHaveAttribute('href', 'https://example.org/cert/1')

    const italianDownload = card.getByText('Coming soon', { exact: false })
    expect(italianDownload).toHaveAttribute('aria-disabled', 'true')
    expect(italianDownload).not.toHaveAttribute('href')
    expect(card.getByText('Certificate soon', { exact: false })).toHaveAttribute(
      'aria-disabled',
      'true',
    )
    expect(card.getAllByRole('link').filter((link) => link.hasAttribute('href'))).toHaveLength(2)
  })

  it('offers the public key as a download and disables the missing author link', async () => {
    renderPapers()
    const key = await screen.findByRole('link', { name: 'Download public key (.pem)' })
    expect(key).toHaveAttribute('href', '/documents/public-key.pem')
    expect(key).toHaveAttribute('download')
    expect(screen.getByText('Author links coming soon')).toHaveAttribute('aria-disabled', 'true')
  })
})

describe("the papers page's introduction", () => {
  it('shows the eyebrow, title and text edited in the CMS', async () => {
    renderPapers()
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Papers an editor named' }),
    ).toBeInTheDocument()
    expect(screen.getByText('Reading room')).toBeInTheDocument()
    expect(screen.getByText('An introduction an editor wrote.')).toBeInTheDocument()
    expect(screen.queryByText(/Nine papers describe the framework/)).not.toBeInTheDocument()
  })

  it('holds its place while it loads', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    )
    renderPapers()
    expect(screen.getByTestId('papers-intro-placeholder')).toHaveAttribute('aria-hidden', 'true')
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument()
  })
})
