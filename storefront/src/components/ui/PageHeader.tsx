import type { ReactNode } from 'react'
import './ui.css'

/** The top of an information page: a small eyebrow, the page's one h1 and its lead. */
export function PageHeader({
  eyebrow,
  title,
  children,
}: {
  eyebrow?: string
  title: string
  children?: ReactNode
}) {
  return (
    <header className="page-header">
      <div className="container">
        {eyebrow ? <p className="page-header__eyebrow">{eyebrow}</p> : null}
        <h1>{title}</h1>
        {children ? <div className="page-header__lead">{children}</div> : null}
      </div>
    </header>
  )
}
