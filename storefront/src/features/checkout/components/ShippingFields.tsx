import type { ShippingDetails } from '../api/create-order'

type Field = { name: keyof ShippingDetails; label: string; autoComplete: string; required: boolean }

// Only the browser's required attributes enforce these (spec section 5); the phone is held in
// state but has no visible input.
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
  { name: 'shippingCountry', label: 'Country', autoComplete: 'country-name', required: true },
]

export function ShippingFields({
  values,
  onChange,
  disabled,
}: {
  values: ShippingDetails
  onChange: (name: keyof ShippingDetails, value: string) => void
  disabled: boolean
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
      </div>
    </fieldset>
  )
}
