import type { ShippingDetails } from '../api/create-order'
import { CountryField } from './CountryField'

type Field = { name: keyof ShippingDetails; label: string; autoComplete: string; required: boolean }

// Only the browser's required attributes enforce these (spec section 5); the country comes from
// the list and the optional phone is checked on submit.
const FIELDS: Field[] = [
  { name: 'shippingName', label: 'Full name', autoComplete: 'name', required: true },
  {
    name: 'shippingAddressLine1',
    label: 'Address line 1',
    autoComplete: 'address-line1',
    required: true,
  },
  {
    name: 'shippingAddressLine2',
    label: 'Address line 2 (optional)',
    autoComplete: 'address-line2',
    required: false,
  },
  { name: 'shippingCity', label: 'City', autoComplete: 'address-level2', required: true },
  {
    name: 'shippingStateProvince',
    label: 'State / Province (optional)',
    autoComplete: 'address-level1',
    required: false,
  },
  { name: 'shippingPostalCode', label: 'Postal code', autoComplete: 'postal-code', required: true },
]

export function ShippingFields({
  values,
  onChange,
  disabled,
  phoneError,
}: {
  values: ShippingDetails
  onChange: (name: keyof ShippingDetails, value: string) => void
  disabled: boolean
  phoneError?: string
}) {
  return (
    <fieldset className="card checkout-fieldset" disabled={disabled}>
      <legend>Shipping address</legend>
      <div className="checkout-grid">
        {FIELDS.map((field) => (
          <div className="form-field" key={field.name}>
            <label htmlFor={field.name}>
              {field.label}
              {field.required ? <span aria-hidden="true"> *</span> : null}
            </label>
            <input
              id={field.name}
              name={field.name}
              type="text"
              autoComplete={field.autoComplete}
              required={field.required}
              value={values[field.name]}
              onChange={(event) => onChange(field.name, event.target.value)}
            />
          </div>
        ))}
        <CountryField
          value={values.shippingCountry}
          onChange={(name) => onChange('shippingCountry', name)}
        />
        <div className="form-field">
          <label htmlFor="shippingPhone">Phone (optional)</label>
          <input
            id="shippingPhone"
            name="shippingPhone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            aria-invalid={phoneError ? true : undefined}
            aria-describedby={phoneError ? 'shippingPhone-error' : 'shippingPhone-hint'}
            value={values.shippingPhone}
            onChange={(event) => onChange('shippingPhone', event.target.value)}
          />
          {phoneError ? (
            <p id="shippingPhone-error" className="form-error">
              {phoneError}
            </p>
          ) : (
            <p id="shippingPhone-hint" className="form-hint">
              Only for the courier, if they need to reach you.
            </p>
          )}
        </div>
      </div>
    </fieldset>
  )
}
