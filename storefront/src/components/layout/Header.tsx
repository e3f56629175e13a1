import { useState } from 'react'
import { Link, NavLink } from 'react-router-dom'

import { paths } from '@/config/paths'
import { useHydrated } from '@/lib/use-hydrated'

export const mainLinks = [
  { to: paths.papers, label: 'Papers' },
  { to: paths.proofs, label: 'Proofs' },
  { to: paths.store, label: 'Store' },
  { to: paths.updates, label: 'Updates' },
] as const

export function Header() {
  const [open, setOpen] = useState(false)
  const hydrated = useHydrated()
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to={paths.home} className="brand" onClick={() => setOpen(false)}>
          <span className="brand__mark" aria-hidden="true" />
          <span>Dual Vote</span>
        </Link>
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="main-nav"
          disabled={!hydrated}
          onClick={() => setOpen((value) => !value)}
        >
          <span className="visually-hidden">Menu</span>
          <span aria-hidden="true">{open ? '✕' : '☰'}</span>
        </button>
        <nav
          id="main-nav"
          aria-label="Main"
          className={open ? 'main-nav main-nav--open' : 'main-nav'}
        >
          <ul>
            {mainLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} onClick={() => setOpen(false)}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  )
}
