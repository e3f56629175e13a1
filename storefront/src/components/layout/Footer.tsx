import { Link } from 'react-router-dom'

import { paths } from '@/config/paths'

import { mainLinks } from './Header'

const legalLinks = [
  { to: paths.privacy, label: 'Privacy Policy' },
  { to: paths.terms, label: 'Terms of Use' },
] as const

/** One titled column of links in the footer; `id` names its heading. */
function FooterLinks({
  id,
  title,
  links,
}: {
  id: string
  title: string
  links: readonly { to: string; label: string }[]
}) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="site-footer__title">
        {title}
      </h2>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div>
          <p className="brand brand--footer">
            <span className="brand__mark" aria-hidden="true" />
            <span>Dual Vote</span>
          </p>
          <p className="muted">Identity, the dual vote and trust metrics on a public ledger.</p>
        </div>
        <FooterLinks id="footer-explore" title="Explore" links={mainLinks} />
        <FooterLinks id="footer-legal" title="Legal" links={legalLinks} />
      </div>
      <div className="container site-footer__bottom muted">
        © {new Date().getFullYear()} Dual Vote. Payments in BSV.
      </div>
    </footer>
  )
}
