import { render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { RouteErrorBoundary } from './RouteErrorBoundary'

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module')
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a screen that fails to render', () => {
  it('shows a way out instead of a blank page, and clears on the next path', () => {
    // React reports the caught error on the console; that noise is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { rerender } = render(
      <RouteErrorBoundary resetKey="/store">
        <Broken />
      </RouteErrorBoundary>,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong.')
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument()

    rerender(
      <RouteErrorBoundary resetKey="/papers">
        <p>Papers page</p>
      </RouteErrorBoundary>,
    )
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.getByText('Papers page')).toBeInTheDocument()
  })
})
