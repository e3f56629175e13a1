import type { SyntheticEvent } from 'react'

export const PLACEHOLDER_COVER = '/placeholder-cover.svg'

/** A book cover from the server, or the placeholder when there is none or it fails to load. */
export function ProductCover({
  src,
  name,
  className,
  eager = false,
}: {
  src: string | null
  name: string
  className?: string
  eager?: boolean
}) {
  const onError = (event: SyntheticEvent<HTMLImageElement>) => {
    const image = event.currentTarget
    if (!image.src.endsWith(PLACEHOLDER_COVER)) image.src = PLACEHOLDER_COVER
  }
  return (
    <img
      className={className}
      src={src || PLACEHOLDER_COVER}
      alt={`Cover of ${name}`}
      width={600}
      height={900}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      onError={onError}
    />
  )
}
