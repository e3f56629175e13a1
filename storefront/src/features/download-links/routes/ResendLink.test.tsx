import { RESEND_LINKS_ANSWER } from '@shop/domain'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { ResendLinkRoute } from './ResendLink'

type Call = { path: string; body: unknown }
let calls: Call[] = []
let reply: () => Response

beforeEach(() => {
  calls = []
  reply = () =>
    new Response(JSON.stringify(RESEND_LINKS_ANSWER), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      calls.push({ path: input, body: init?.body ? JSON.parse(String(init.body)) : null })
      return reply()
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
})

const renderPage = () =>
  render(
    <MemoryRouter initialEntries={['/resend-link']}>
      <ResendLinkRoute />
    </MemoryRouter>,
  )

describe('/resend-link', () => {
  it('asks for new links for the address and shows the shop’s one answer', async () => {
    const user = userEvent.setup()
    renderPage()
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Lost your download link?')
    await user.type(screen.getByLabelText('Email address'), '  reader@example.com ')
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }))
    const status = await screen.findByRole('status')
    expect(status).toHaveTextContent('Request received for reader@example.com.')
    expect(status).toHaveTextContent(RESEND_LINKS_ANSWER.message)
    expect(calls).toEqual([
      { path: '/api/orders/resend-links', body: { email: 'reader@example.com' } },
    ])
  })

  it('refuses a malformed address with the shop’s rule, without asking the server', async () => {
    const user = userEvent.setup()
    renderPage()
    const field = screen.getByLabelText('Email address')
    await user.type(field, 'not-an-address')
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }))
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(calls).toEqual([])
    // Editing clears the message.
    await user.type(field, 'x')
    expect(screen.queryByText('Please enter a valid email address.')).not.toBeInTheDocument()
  })

  it('says so when the request fails, with the server’s reason or the fallback', async () => {
    const user = userEvent.setup()
    reply = () => Response.error()
    renderPage()
    await user.type(screen.getByLabelText('Email address'), 'reader@example.com')
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to request a new download link.',
    )
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })
})
