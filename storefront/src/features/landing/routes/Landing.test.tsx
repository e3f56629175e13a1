import type { LandingHero } from '@shop/domain'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { LandingRoute } from './Landing'

// Not the seeded texts: what the page shows must come from the CMS, not from the code.
const hero: LandingHero = {
  eyebrow: 'Edited eyebrow',
  title: 'A title an editor wrote',
  text: 'A lead an editor wrote.',
  storeButtonLabel: 'Buy it now',
  resourcesButtonLabel: 'See more',
}

type Reply = { status: number; body: unknown } | 'pending'

function stubApi(replies: Record<string, Reply>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const reply = replies[url] ?? { status: 200, body: [] }
      if (reply === 'pending') return new Promise<Response>(() => undefined)
      return new Response(JSON.stringify(reply.body), { status: reply.status })
    }),
  )
}

const renderLanding = () =>
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter>
        <LandingRoute />
      </MemoryRouter>
    </SWRConfig>,
  )

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("the landing page's hero", () => {
  it('shows the title, text and button labels edited in the CMS, to the store and #resources', async () => {
    stubApi({ '/api/content/landing-hero': { status: 200, body: hero } })
    renderLanding()
    const title = await screen.findByRole('heading', { level: 1, name: hero.title })
    const section = within(title.closest('section')!)
    expect(section.getByText('Edited eyebrow')).toBeInTheDocument()
    expect(section.getByText('A lead an editor wrote.')).toBeInTheDocument()
    expect(section.getByRole('link', { name: 'Buy it now' })).toHaveAttribute('href', '/store')
    expect(section.getByRole('link', { name: 'See more' })).toHaveAttribute('href', '#resources')
    expect(screen.queryByText('Get the book')).not.toBeInTheDocument()
    expect(screen.getByRole('region', { name: hero.title })).toBeInTheDocument()
  })

  it('holds its place with placeholders while the texts load', () => {
    stubApi({ '/api/content/landing-hero': 'pending' })
    renderLanding()
    expect(screen.getByTestId('hero-placeholder')).toHaveAttribute('aria-hidden', 'true')
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument()
    // The rest of the page does not wait for them.
    expect(screen.getByRole('heading', { name: 'Four pillars' })).toBeInTheDocument()
  })

  it('says the texts failed to load and tries again on request', async () => {
    let fail = true
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url !== '/api/content/landing-hero') return new Response('[]', { status: 200 })
        return fail
          ? new Response(JSON.stringify({ error: 'Failed to load page data.' }), { status: 500 })
          : new Response(JSON.stringify(hero), { status: 200 })
      }),
    )
    renderLanding()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load page data.')
    fail = false
    await userEvent.click(within(alert).getByRole('button', { name: 'Try Again' }))
    expect(await screen.findByRole('heading', { level: 1, name: hero.title })).toBeInTheDocument()
  })
})
