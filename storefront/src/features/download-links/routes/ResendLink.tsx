import { EMAIL_RULE, isEmail } from '@shop/domain'
import { useState } from 'react'
import type { FormEvent } from 'react'
import { Link } from 'react-router-dom'

import { paths } from '@/config/paths'

import { resendLinks } from '../api/resend-links'
import '../download-links.css'

type Sent = { message: string; email: string }

/**
 * /resend-link: a buyer whose download link expired or was used up gives the e-mail address
 * they bought with, and every paid PDF order of it gets a fresh link by e-mail. The shop answers
 * the same for any address, so the page says what happens if the address bought a book.
 */
export function ResendLinkRoute() {
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState<Sent | null>(null)

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const address = email.trim()
    if (!isEmail(address)) {
      setError(EMAIL_RULE)
      return
    }
    setBusy(true)
    setFailure(null)
    try {
      const answer = await resendLinks(address)
      setSent({ message: answer.message, email: address })
    } catch (problem) {
      setFailure(
        (problem instanceof Error && problem.message) || 'Failed to request a new download link.',
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="container page narrow resend-link">
      <title>Lost your download link? · Dual Vote</title>
      <div className="card resend-link__card">
        <h1>Lost your download link?</h1>
        <p>
          Each download link works a limited number of times and for a limited time. Give the e-mail
          address you bought with, and we e-mail you a fresh link for every PDF you paid for. Links
          you had before keep their own limits.
        </p>

        {sent ? (
          <div className="resend-link__sent" role="status">
            <p>
              <strong>Request received for {sent.email}.</strong>
            </p>
            <p>{sent.message}</p>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                setSent(null)
                setEmail('')
              }}
            >
              Use another address
            </button>
          </div>
        ) : (
          <form className="resend-link__form" onSubmit={onSubmit} noValidate>
            <div className="resend-link__field">
              <label htmlFor="resend-email">Email address</label>
              {/* type=email for the keyboard; the shop's own rule gives the message */}
              <input
                id="resend-email"
                name="email"
                type="email"
                autoComplete="email"
                aria-required="true"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'resend-email-error' : 'resend-email-hint'}
                value={email}
                disabled={busy}
                onChange={(event) => {
                  setEmail(event.target.value)
                  setError(null)
                  setFailure(null)
                }}
              />
              {error ? (
                <p id="resend-email-error" className="resend-link__error">
                  {error}
                </p>
              ) : (
                <p id="resend-email-hint" className="muted resend-link__hint">
                  The address you gave at checkout.
                </p>
              )}
            </div>
            {failure ? (
              <p className="resend-link__error resend-link__error--general" role="alert">
                {failure}
              </p>
            ) : null}
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Sending...' : 'Send me a new link'}
            </button>
          </form>
        )}

        <p className="muted resend-link__more">
          Bought a printed book? It comes by post: the shipping e-mail has its tracking number.{' '}
          <Link to={paths.store}>Back to the store</Link>
        </p>
      </div>
    </section>
  )
}

export const Component = ResendLinkRoute
