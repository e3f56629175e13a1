import { Fragment } from 'react'

/**
 * An e-mail address that wraps only where a reader expects: after the '@', a '.' or a '-'
 * (a <wbr> at each), never in the middle of a name or a domain label unless one alone is wider
 * than its box.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?<=[@.-])/)
  return (
    <span className="admin-email">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  )
}
