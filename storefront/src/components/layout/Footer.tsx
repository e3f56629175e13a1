import { Link } from 'react-router-dom'

import { paths } from '@/config/paths'

import { mainLinks } from './Header'

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
        <nav aria-labelledby="footer-explore">
          <h2 id="footer-explore" className="site-footer__title">
            Explore
          </h2>
          <ul>
            {mainLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="site-footer__title">
            Legal
          </h2>
          <ul>
            <li>
              <Link to={paths.privacy}>Privacy Policy</Link>
            </li>
            <li>
              <Link to={paths.terms}>Terms of Use</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container site-footer__bottom muted">
        © {new Date().getFullYear()} Dual Vote. Payments in BSV.
      </div>
    </footer>
  )
}
