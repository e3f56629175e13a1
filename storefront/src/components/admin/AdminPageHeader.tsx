import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'

/**
 * The top of an admin page: the way back (a breadcrumb) when there is one, the title, what the
 * caller puts under it (a line of explanation) and, on the right, the page's actions.
 */
export function AdminPageHeader({
  title,
  back,
  here,
  titleClassName,
  actions,
  children,
}: {
  title: ReactNode
  /** The page one level up, linked before the breadcrumb's slash. */
  back?: { to: string; label: string }
  /** This page's name after the slash, when the breadcrumb names it. */
  here?: string
  titleClassName?: string
  /** Links or buttons beside the title (an export, a new product). */
  actions?: ReactNode
  children?: ReactNode
}) {
  return (
    <header className="admin-page__header">
      <div>
        {back ? (
          <p className="admin-breadcrumb">
            <Link to={back.to}>{back.label}</Link> /{here ? ` ${here}` : null}
          </p>
        ) : null}
        <h1 className={titleClassName}>{title}</h1>
        {children}
      </div>
      {actions}
    </header>
  )
}
