import type { Tool } from '@shop/domain'
import { render, screen, within } from '@testing-library/react'
import { SWRConfig } from 'swr'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { ProofsRoute } from './Proofs'

const tools: Tool[] = [
  {
    name: 'Blockchain explorer',
    description: 'Look up anything.',
    link: 'https://whatsonchain.com',
    manuals: [],
  },
  {
    name: 'Dual vote chat bot',
    description: 'Runs a dual vote.',
    link: '#',
    manuals: [
      { language: 'en', label: 'English', link: '/documents/bot-en.pdf' },
      { language: 'it', label: 'Italiano', link: '#' },
      { language: 'fr', label: 'Français', link: '#' },
      { language: 'es', label: 'Español', link: '#' },
    ],
  },
]

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the proofs page', () => {
  it("shows 'Link Coming Soon' disabled for '#' tools and the bot's four manuals", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(tools), { status: 200 })),
    )
    render(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <ProofsRoute />
      </SWRConfig>,
    )
    const explorer = within(
      (await screen.findByRole('heading', { name: 'Blockchain explorer' })).closest('article')!,
    )
    expect(explorer.getByRole('link', { name: /Open Blockchain explorer/ })).toHaveAttribute(
      'href',
      'https://whatsonchain.com',
    )
    expect(explorer.queryByText('Link Coming Soon')).not.toBeInTheDocument()

    const bot = within(
      screen.getByRole('heading', { name: 'Dual vote chat bot' }).closest('article')!,
    )
    const comingSoon = bot.getByText('Link Coming Soon')
    expect(comingSoon).toHaveAttribute('aria-disabled', 'true')
    expect(comingSoon).not.toHaveAttribute('href')
    expect(
      bot.getByRole('link', { name: /^English\s*manual of the Dual vote chat bot$/ }),
    ).toHaveAttribute('href', '/documents/bot-en.pdf')
    for (const language of ['Italian', 'French', 'Spanish']) {
      expect(bot.getByText(`${language} · Link Coming Soon`)).toHaveAttribute(
        'aria-disabled',
        'true',
      )
    }
  })
})
