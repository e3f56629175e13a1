import type { AdminHealth, ChainSourceHealth, ChainUsage } from '@shop/domain'
import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { describe, expect, it } from 'vitest'

import { ChainSources } from './ChainSources'
import { HealthList, healthOf } from './HealthList'

describe('the shop health', () => {
  const health: AdminHealth = {
    worker: { running: true, leaseUntil: '2026-11-24T10:00:00Z' },
    chain: {
      source: 'whatsonchain',
      origin: 'https://api.whatsonchain.com',
      lastCheckAt: null,
      lastLookOkAt: null,
      usage: null,
      sources: [
        {
          name: 'WhatsOnChain',
          origin: 'https://api.whatsonchain.com',
          usage: null,
          lastAnswerAt: null,
          disagreements: [],
        },
      ],
      alertAfterMinutes: 15,
      outage: null,
    },
    email: { delivery: 'smtp', pending: 0, failed: 0, lastSentAt: null, lastError: null },
  }

  const usage: ChainUsage = {
    recordedAt: '2026-11-27T10:00:00Z',
    callsToday: 41_207,
    capPerDay: 100_000,
    callsLastSecond: 3,
    limitPerSecond: 10,
    throttledUntil: '2026-11-27T10:00:30Z',
    errorsLastHour: [
      { kind: 'throttled', count: 17 },
      { kind: 'network', count: 2 },
    ],
    failingAddresses: [
      {
        address: '1FailingAddressOfAnOrder00000000',
        reason: 'Failed to get history',
        since: '2026-11-27T09:50:00Z',
        failures: 9,
        orderId: 'order-1',
      },
    ],
    failingAddressCount: 3,
  }

  it('is all right when the worker runs and no e-mail failed', () => {
    expect(healthOf(health).map((part) => part.ok)).toEqual([true, true, true])
  })

  it('says what to check: a stopped worker, failed or turned-off e-mail', () => {
    const parts = healthOf({
      ...health,
      worker: { running: false, leaseUntil: '2026-11-24T10:00:00Z' },
      email: { ...health.email, failed: 2, lastError: '550 mailbox unavailable' },
    })
    expect(parts[0]).toMatchObject({ ok: false, text: expect.stringMatching(/^Not running since/) })
    expect(parts[2]).toMatchObject({
      ok: false,
      text: expect.stringContaining('2 failed. None sent yet. Last error: 550 mailbox unavailable'),
    })
    expect(healthOf({ ...health, email: { ...health.email, delivery: 'off' } })[2]!.ok).toBe(false)
  })

  it('says when the owner is alerted, and when no look has succeeded since', () => {
    const [, chain] = healthOf(health)
    expect(chain!.text).toContain('You are alerted after 15 minutes without a successful look.')
    const [, down] = healthOf({
      ...health,
      chain: {
        ...health.chain,
        lastLookOkAt: '2026-11-27T09:15:00Z',
        outage: { since: '2026-11-27T09:15:00Z', alertedAt: '2026-11-27T09:30:00Z' },
      },
    })
    expect(down).toMatchObject({
      ok: false,
      text: expect.stringMatching(
        /no look has succeeded since .+, so no payment is being detected/,
      ),
    })
  })

  it('asks for a look when the daily cap is spent or addresses keep failing', () => {
    const chainWith = (u: ChainUsage) =>
      healthOf({ ...health, chain: { ...health.chain, usage: u } })[1]!
    expect(chainWith({ ...usage, failingAddresses: [], failingAddressCount: 0 }).ok).toBe(true)
    expect(chainWith(usage).ok).toBe(false)
    const capSpent = chainWith({
      ...usage,
      failingAddresses: [],
      failingAddressCount: 0,
      errorsLastHour: [{ kind: 'daily-cap', count: 40 }],
    })
    expect(capSpent).toMatchObject({
      ok: false,
      text: expect.stringContaining('daily request cap'),
    })
  })

  it("draws the chain source's calls, limits, errors and failing addresses", () => {
    render(
      <MemoryRouter>
        <HealthList
          health={{
            ...health,
            chain: {
              ...health.chain,
              usage,
              sources: [{ ...health.chain.sources[0]!, usage }],
            },
          }}
        />
      </MemoryRouter>,
    )
    expect(screen.getByTestId('chain-calls-today').textContent).toBe('41,207 of 100,000 (41%)')
    expect(screen.getByText('3 of 10 per second')).toBeTruthy()
    expect(screen.getByTestId('chain-errors').textContent).toBe(
      '17 throttled answers (429), 2 network failures',
    )
    expect(screen.getByText(/^until /)).toBeTruthy()
    const failing = screen.getByText('1FailingAddressOfAnOrder00000000').closest('li')!
    expect(within(failing).getByRole('link', { name: 'its order' }).getAttribute('href')).toBe(
      '/admin/orders/order-1',
    )
    expect(failing.textContent).toContain('9 look(s) in a row since')
    expect(failing.textContent).toContain('Failed to get history')
    expect(screen.getByText('3 address(es)', { exact: false })).toBeTruthy()
    expect(screen.getByText('and 2 more.')).toBeTruthy()
  })

  it('draws each chain source: its last answer, calls against the cap, errors and disagreements', () => {
    const now = Date.parse('2026-12-07T10:00:00Z')
    const txid = 'ab12cd34'.repeat(8)
    render(
      <MemoryRouter>
        <ChainSources
          now={now}
          sources={[
            {
              name: 'WhatsOnChain',
              origin: 'https://api.whatsonchain.com',
              usage: { ...usage, failingAddresses: [], failingAddressCount: 0 },
              lastAnswerAt: '2026-12-07T09:58:00Z',
              disagreements: [],
            },
            {
              name: 'ARC',
              origin: 'https://arc.gorillapool.io',
              usage: {
                ...usage,
                callsToday: 57,
                capPerDay: null,
                errorsLastHour: [{ kind: 'server', count: 4 }],
                failingAddresses: [],
                failingAddressCount: 0,
              },
              lastAnswerAt: '2026-12-07T09:59:30Z',
              disagreements: [
                {
                  txid,
                  at: '2026-12-07T09:55:00Z',
                  whatsonchain: 'in block 812345',
                  arc: 'DOUBLE_SPEND_ATTEMPTED',
                },
              ],
            },
          ]}
        />
      </MemoryRouter>,
    )
    const woc = screen.getByRole('region', { name: 'WhatsOnChain' })
    const arc = screen.getByRole('region', { name: 'ARC' })
    expect(within(woc).getByText('2 minutes ago')).toBeTruthy()
    expect(within(woc).getByTestId('chain-calls-today').textContent).toBe('41,207 of 100,000 (41%)')
    expect(within(woc).getByTestId('chain-errors').textContent).toBe(
      '17 throttled answers (429), 2 network failures',
    )
    expect(within(woc).getByText('No disagreement.')).toBeTruthy()

    expect(within(arc).getByText('30 seconds ago')).toBeTruthy()
    expect(within(arc).getByTestId('chain-calls-today').textContent).toBe('57 (no daily cap known)')
    expect(within(arc).getByTestId('chain-errors').textContent).toMatch(/^4 /)
    expect(within(arc).queryByText('No disagreement.')).toBeNull()
    const disagreement = within(arc).getByRole('listitem')
    expect(within(disagreement).getByRole('link').textContent).toBe('ab12cd34…ab12cd34')
    expect(within(disagreement).getByRole('link').getAttribute('href')).toContain(txid)
    expect(disagreement.textContent).toContain('5 minutes ago')
    expect(disagreement.textContent).toContain(
      'WhatsOnChain said “in block 812345”, ARC said “DOUBLE_SPEND_ATTEMPTED”',
    )
  })

  it('shows both sources on the dashboard card, and a source with nothing recorded yet', () => {
    render(
      <MemoryRouter>
        <HealthList
          health={{
            ...health,
            chain: {
              ...health.chain,
              sources: [
                { ...health.chain.sources[0]!, usage },
                {
                  name: 'ARC',
                  origin: null,
                  usage: null,
                  lastAnswerAt: null,
                  disagreements: [],
                },
              ],
            },
          }}
        />
      </MemoryRouter>,
    )
    const chain = screen.getByText('Chain source').closest('li')!
    const regions = within(chain).getAllByRole('region')
    expect(regions.map((r) => r.getAttribute('aria-label'))).toEqual(['WhatsOnChain', 'ARC'])
    expect(regions[1]!.textContent).toContain('not configured')
    expect(regions[1]!.textContent).toContain('Last answer: none yet')
    expect(regions[1]!.textContent).toContain('No figures recorded yet.')
    expect(within(regions[0]!).getByTestId('chain-calls-today')).toBeTruthy()
  })

  it("says how ARC's callbacks come: how many lately and the last, none, or off", () => {
    const now = Date.parse('2026-12-07T10:00:00Z')
    const arc = (callbacks: ChainSourceHealth['callbacks']): ChainSourceHealth => ({
      name: 'ARC',
      origin: 'https://arc.taal.com',
      usage: null,
      lastAnswerAt: null,
      disagreements: [],
      callbacks,
    })
    const url = 'https://shop.example.com/api/arc/callback'
    const line = (callbacks: ChainSourceHealth['callbacks']) => {
      const { container, unmount } = render(<ChainSources now={now} sources={[arc(callbacks)]} />)
      const text = container.querySelector('.chain-source__callbacks')?.textContent ?? null
      unmount()
      return text
    }
    expect(line({ url, lastAt: '2026-12-07T09:57:00Z', lastDay: 12 })).toBe(
      `Callbacks: 12 in the last 24 hours, the last 3 minutes ago to ${url}`,
    )
    expect(line({ url, lastAt: '2026-12-07T09:59:50Z', lastDay: 1 })).toMatch(
      /^Callbacks: one in the last 24 hours, the last/,
    )
    expect(line({ url, lastAt: null, lastDay: 0 })).toBe(
      `Callbacks: none in the last 24 hours to ${url}`,
    )
    expect(line({ url: null, lastAt: null, lastDay: 0 })).toBe(
      'Callbacks: off (ARC is asked on the worker’s schedule only).',
    )
    // WhatsOnChain offers none: no line at all.
    expect(line(undefined)).toBeNull()
  })

  it('draws no figures before the worker recorded any', () => {
    const { container } = render(
      <MemoryRouter>
        <HealthList health={health} />
      </MemoryRouter>,
    )
    expect(container.querySelector('.chain-usage')).toBeNull()
  })
})
