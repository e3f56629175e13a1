import { toast } from 'react-toastify'

async function copyToClipboard(text: string, what: 'Address' | 'Amount') {
  try {
    await navigator.clipboard.writeText(text)
    toast.success(`${what} copied!`)
  } catch {
    toast.error('Failed to copy.')
  }
}

/** A value the buyer must paste into a wallet, with its copy button. */
export function CopyField({
  label,
  value,
  what,
  suffix,
}: {
  label: string
  value: string
  what: 'Address' | 'Amount'
  suffix?: string
}) {
  const id = `pay-${what.toLowerCase()}`
  return (
    <div className="pay-copy">
      <span className="pay-copy__label" id={`${id}-label`}>
        {label}
      </span>
      <div className="pay-copy__row">
        <code className="pay-copy__value" id={id} aria-labelledby={`${id}-label ${id}`}>
          {value}
          {suffix ? <span className="pay-copy__suffix"> {suffix}</span> : null}
        </code>
        <button
          type="button"
          className="button button--ghost button--small pay-copy__button"
          onClick={() => void copyToClipboard(value, what)}
          aria-label={`Copy ${what.toLowerCase()}`}
        >
          Copy
        </button>
      </div>
    </div>
  )
}
