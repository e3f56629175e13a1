import { countryList, matchCountries } from '@shop/domain'
import { useMemo, useState } from 'react'

/**
 * The shipping country: a native list (keyboard, screen readers, phone pickers and autofill all
 * know it), with a filter above it for a list of 249. Typing narrows the list; when one country
 * is left it is chosen. The value sent is the country's English name, as orders store it.
 */
export function CountryField({
  value,
  onChange,
}: {
  value: string
  onChange: (name: string) => void
}) {
  const [filter, setFilter] = useState('')
  const matches = useMemo(() => matchCountries(filter), [filter])
  // The chosen country stays in the list while a filter hides it, so the choice never changes
  // behind the buyer's back.
  const shown = useMemo(() => {
    if (!value || matches.some((country) => country.name === value)) return matches
    const chosen = countryList().find((country) => country.name === value)
    return chosen ? [chosen, ...matches] : matches
  }, [matches, value])
  const filtering = filter.trim() !== ''

  return (
    <div className="form-field form-field--wide country-field">
      <label htmlFor="shippingCountry">
        Country<span aria-hidden="true"> *</span>
      </label>
      <div className="country-field__controls">
        <input
          id="shippingCountry-filter"
          type="search"
          className="country-field__filter"
          aria-label="Filter the list of countries"
          aria-controls="shippingCountry"
          aria-describedby="shippingCountry-matches"
          placeholder="Type to filter, e.g. Italy"
          autoComplete="off"
          spellCheck={false}
          value={filter}
          onChange={(event) => {
            const next = event.target.value
            setFilter(next)
            const left = matchCountries(next)
            if (next.trim() !== '' && left.length === 1 && left[0]!.name !== value)
              onChange(left[0]!.name)
          }}
        />
        <select
          id="shippingCountry"
          name="shippingCountry"
          autoComplete="country-name"
          required
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{filtering ? 'Choose from the matches' : 'Choose a country'}</option>
          {shown.map((country) => (
            <option key={country.code} value={country.name}>
              {country.name}
            </option>
          ))}
        </select>
      </div>
      <p id="shippingCountry-matches" className="form-hint" aria-live="polite">
        {!filtering
          ? 'Type in the box to shorten the list.'
          : matches.length === 0
            ? 'No country matches. Check the spelling, or try the English name.'
            : matches.length === 1
              ? `1 country matches: ${matches[0]!.name}${matches[0]!.name === value ? ', chosen' : ''}.`
              : `${matches.length} countries match.`}
      </p>
    </div>
  )
}
