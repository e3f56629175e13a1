import type { ReactNode } from 'react'
import './ui.css'

type ErrorStateProps = {
  message: string
  onRetry?: () => void
  children?: ReactNode
}

/** A failed load: the message, announced, and a way to try again. */
export function ErrorState({ message, onRetry, children }: ErrorStateProps) {
  return (
    <div className="status-box status-box--error" role="alert">
      <p className="status-box__message">{message}</p>
      {onRetry ? (
        <button type="button" className="button button--primary" onClick={onRetry}>
          Try Again
        </button>
      ) : null}
      {children}
    </div>
  )
}

/** A quiet, announced placeholder while something loads. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="status-box" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}

/** Nothing to show (an empty list), said plainly. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="status-box status-box--empty">{children}</p>
}
