import { Link } from 'react-router-dom'

import { paths } from '@/config/paths'

export function NotFoundRoute() {
  return (
    <section className="container page narrow center">
      <h1>404 Page Not Found</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <Link to={paths.home} className="button button--primary">
        Go to the homepage
      </Link>
    </section>
  )
}

export const Component = NotFoundRoute
