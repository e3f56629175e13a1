import { EMAIL_RULE, isEmail, isPhoneNumber } from '@shop/domain'
import { useState } from 'react'
import type { FormEvent } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { toast } from 'react-toastify'

import { paths } from '@/config/paths'
import { ApiError } from '@/lib/api-client'

import { createOrder } from '../api/create-order'
import type { CreateOrderRequest, ShippingDetails } from '../api/create-order'
import type { CheckoutProduct } from '../types'
import { ShippingFields } from './ShippingFields'

const EMPTY_SHIPPING: ShippingDetails = {
  shippingName: '',
  shippingAddressLine1: '',
  shippingAddressLine2: '',
  shippingCity: '',
  shippingStateProvince: '',
  shippingPostalCode: '',
  shippingCountry: '',
  shippingPhone: '',
}

const PHONE_MESSAGE =
  'Please enter a valid phone number: 6 to 20 digits; spaces, +, - and parentheses are allowed.'

type FieldErrors = { userEmail?: string; shippingPhone?: string }

/** Times the form asks again by itself when the shop answers busy (503 with Retry-After). */
const BUSY_RETRIES = 5
const MAX_RETRY_WAIT_SECONDS = 15

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The order, asked again while the shop says it is busy; `waiting` tells the buyer why. */
async function createOrderPatiently(
  body: CreateOrderRequest,
  waiting: (seconds: number | null) => void,
) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await createOrder(body)
    } catch (error) {
      const busy = error instanceof ApiError && error.status === 503 && error.retryAfterSeconds
      if (!busy || attempt >= BUSY_RETRIES) throw error
      // A little spread, so buyers turned away together do not all come back together.
      const seconds = Math.min(error.retryAfterSeconds!, MAX_RETRY_WAIT_SECONDS)
      waiting(seconds)
      await sleep(seconds * 1000 + Math.random() * 1000)
      waiting(null)
    }
  }
}

/** Contact details, shipping (PHYSICAL only), the terms, and 'Proceed to Payment' (spec sections 2, 5). */
export function CheckoutForm({ product }: { product: CheckoutProduct }) {
  const navigate = useNavigate()
  const [userEmail, setUserEmail] = useState('')
  const [tokenAddress, setTokenAddress] = useState('')
  const [shipping, setShipping] = useState<ShippingDetails>(EMPTY_SHIPPING)
  const [agreed, setAgreed] = useState(false)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [generalError, setGeneralError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [retryIn, setRetryIn] = useState<number | null>(null)
  const isPhysical = product.type === 'PHYSICAL'

  // Editing a field clears its own error and the general error.
  const edited = (field?: keyof FieldErrors) => {
    if (field && errors[field]) setErrors((current) => ({ ...current, [field]: undefined }))
    if (generalError) setGeneralError(null)
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const email = userEmail.trim()
    const phone = shipping.shippingPhone.trim()
    const found: FieldErrors = {}
    // The shop's one e-mail rule, as the server applies it.
    if (!isEmail(email)) found.userEmail = EMAIL_RULE
    if (isPhysical && phone !== '' && !isPhoneNumber(phone)) found.shippingPhone = PHONE_MESSAGE
    if (found.userEmail || found.shippingPhone) {
      setErrors(found)
      toast.error('Please correct the errors on the form.')
      return
    }
    if (!agreed) {
      toast.error('You must agree to the Terms of Use and Privacy Policy.')
      return
    }
    const token = tokenAddress.trim()
    const body: CreateOrderRequest = {
      productId: product.id,
      userEmail: email,
      tokenAddress: token === '' ? null : token,
      ...(isPhysical ? { ...shipping, shippingPhone: phone } : {}),
    }
    setBusy(true)
    setGeneralError(null)
    try {
      const result = await createOrderPatiently(body, setRetryIn)
      if (result?.success && result.orderId !== undefined && result.orderId !== null) {
        navigate(paths.pay(String(result.orderId)))
        return
      }
      const message = result?.error || 'Failed to create order.'
      setGeneralError(message)
      toast.error(message)
    } catch (error) {
      const message = (error instanceof Error && error.message) || 'Failed to create order.'
      setGeneralError(message)
      toast.error(message)
    } finally {
      setRetryIn(null)
      setBusy(false)
    }
  }

  return (
    <form className="checkout-form" onSubmit={onSubmit} aria-labelledby="checkout-title">
      <fieldset className="card checkout-fieldset" disabled={busy}>
        <legend>Contact details</legend>
        <div className="form-field">
          <label htmlFor="userEmail">
            Email address<span aria-hidden="true"> *</span>
          </label>
          {/* type=text so the spec's own message is shown rather than the browser's bubble */}
          <input
            id="userEmail"
            name="userEmail"
            type="text"
            inputMode="email"
            autoComplete="email"
            aria-required="true"
            aria-invalid={errors.userEmail ? true : undefined}
            aria-describedby={errors.userEmail ? 'userEmail-error' : 'userEmail-hint'}
            value={userEmail}
            onChange={(event) => {
              setUserEmail(event.target.value)
              edited('userEmail')
            }}
          />
          {errors.userEmail ? (
            <p id="userEmail-error" className="form-error">
              {errors.userEmail}
            </p>
          ) : (
            <p id="userEmail-hint" className="form-hint">
              We send your order confirmation{product.type === 'PDF' ? ' and download link' : ''}{' '}
              here.
            </p>
          )}
        </div>
        <div className="form-field">
          <label htmlFor="tokenAddress">Token / ordinal address (optional)</label>
          <input
            id="tokenAddress"
            name="tokenAddress"
            type="text"
            autoComplete="off"
            spellCheck={false}
            aria-describedby="tokenAddress-hint"
            value={tokenAddress}
            onChange={(event) => {
              setTokenAddress(event.target.value)
              edited()
            }}
          />
          <p id="tokenAddress-hint" className="form-hint">
            A paymail or a 1… address where you can receive a future certificate token.{' '}
            <Link to={paths.walletInfo}>What is an ordinal address?</Link>
          </p>
        </div>
      </fieldset>

      {isPhysical ? (
        <ShippingFields
          values={shipping}
          disabled={busy}
          phoneError={errors.shippingPhone}
          onChange={(name, value) => {
            setShipping((current) => ({ ...current, [name]: value }))
            edited(name === 'shippingPhone' ? 'shippingPhone' : undefined)
          }}
        />
      ) : null}

      <div className="checkout-terms">
        <input
          id="agreeTerms"
          name="agreeTerms"
          type="checkbox"
          checked={agreed}
          disabled={busy}
          onChange={(event) => {
            setAgreed(event.target.checked)
            edited()
          }}
        />
        <label htmlFor="agreeTerms">
          I agree to the <Link to={paths.terms}>Terms of Use</Link> and the{' '}
          <Link to={paths.privacy}>Privacy Policy</Link>.
        </label>
      </div>

      {generalError ? (
        <p className="form-error form-error--general" role="alert">
          {generalError}
        </p>
      ) : null}

      {retryIn !== null ? (
        <p className="checkout-busy" role="status">
          Many people are ordering right now. Your details are kept: we will try again in {retryIn}{' '}
          {retryIn === 1 ? 'second' : 'seconds'}.
        </p>
      ) : null}

      <button type="submit" className="button button--accent checkout-submit" disabled={busy}>
        {busy ? 'Processing...' : 'Proceed to Payment'}
      </button>
      <p className="muted checkout-note">
        Purchases are final and paid in BSV. You will see the payment address next.
      </p>
    </form>
  )
}
