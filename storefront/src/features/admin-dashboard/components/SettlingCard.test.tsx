import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { SettlingCard, settlingOf, waitedFor } from './SettlingCard'

const backlog = (undelivered: number, unmailed: number, oldestAgeSeconds: number | null) => ({
  undelivered,
  unmailed,
  oldestAt: oldestAgeSeconds === null ? null : '2026-11-30T10:00:00.000Z',
  oldestAgeSeconds,
})

describe('the settling card', () => {
  it('says every paid order is delivered and mailed when nothing waits', () => {
    expect(settlingOf(backlog(0, 0, null))).toEqual({
      warning: false,
      text: 'All paid orders delivered and mailed.',
    })
  })

  it('counts what waits to be delivered and mailed, and how long the oldest waits', () => {
    expect(settlingOf(backlog(5, 7, 40))).toEqual({
      warning: false,
      text: '12 paid orders waiting: 5 to deliver, 7 to mail; oldest 40 s.',
    })
    expect(settlingOf(backlog(0, 1, 59)).text).toBe(
      '1 paid order waiting: 0 to deliver, 1 to mail; oldest 59 s.',
    )
  })

  it('warns once the oldest has waited more than five minutes', () => {
    expect(settlingOf(backlog(1, 0, 300)).warning).toBe(false)
    expect(settlingOf(backlog(1, 0, 301))).toEqual({
      warning: true,
      text: '1 paid order waiting: 1 to deliver, 0 to mail; oldest 5 min.',
    })
  })

  it('words an age in its largest units', () => {
    expect(waitedFor(0)).toBe('0 s')
    expect(waitedFor(3599)).toBe('59 min')
    expect(waitedFor(7200)).toBe('2 h')
    expect(waitedFor(7500)).toBe('2 h 5 min')
    expect(waitedFor(3 * 86_400 + 5)).toBe('3 d')
  })

  it('shows the warning style on the card, and what it says while the figures load or fail', () => {
    const { rerender, container } = render(
      <SettlingCard backlog={backlog(2, 3, 3 * 3600)} failed={false} />,
    )
    expect(screen.getByRole('heading', { name: 'Settling' })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe(
      '5 paid orders waiting: 2 to deliver, 3 to mail; oldest 3 h.',
    )
    expect(container.querySelector('.admin-settling--warning')).not.toBeNull()

    rerender(<SettlingCard backlog={backlog(0, 0, null)} failed={false} />)
    expect(screen.getByRole('status').textContent).toBe('All paid orders delivered and mailed.')
    expect(container.querySelector('.admin-settling--warning')).toBeNull()

    rerender(<SettlingCard backlog={undefined} failed={false} />)
    expect(screen.getByRole('status').textContent).toBe('Loading…')
    rerender(<SettlingCard backlog={undefined} failed />)
    expect(screen.getByRole('status').textContent).toBe('The shop figures could not be loaded.')
  })
})
