import { Component } from 'react'
import type { ReactNode } from 'react'

type Props = {
  children: ReactNode
  /** The error is cleared when this changes (the path), so the next page can render. */
  resetKey?: string
}
type State = { hasError: boolean; resetKey: string | undefined }

/**
 * What the data router's default error element did: a screen that throws, or whose chunk fails
 * to load (an old tab after a deploy), shows a way out instead of a blank page.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { hasError: false, resetKey: this.props.resetKey }

  static getDerivedStateFromError(): Partial<State> {
    return { hasError: true }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { hasError: false, resetKey: props.resetKey }
  }

  override render() {
    if (!this.state.hasError) return this.props.children
    return (
      <section className="container page narrow center" role="alert">
        <h1>Something went wrong.</h1>
        <p className="muted">This page could not be shown. Reloading usually fixes it.</p>
        <button
          type="button"
          className="button button--primary"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>
      </section>
    )
  }
}
