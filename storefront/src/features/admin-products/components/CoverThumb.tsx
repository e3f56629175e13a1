import type { SyntheticEvent } from 'react'

const PLACEHOLDER = '/placeholder-cover.svg'

/** A small cover with a cache-busting timestamp (spec section 7), or the placeholder. */
export function CoverThumb({
  url,
  name,
  version,
  size = 'small',
}: {
  url: string | null
  name: string
  version: number
  size?: 'small' | 'large'
}) {
  const onError = (event: SyntheticEvent<HTMLImageElement>) => {
    const image = event.currentTarget
    if (!image.src.endsWith(PLACEHOLDER)) image.src = PLACEHOLDER
  }
  return (
    <img
      className={size === 'small' ? 'admin-thumb' : 'admin-thumb admin-thumb--large'}
      src={url ? `${url}?t=${version}` : PLACEHOLDER}
      alt={`Cover of ${name}`}
      width={size === 'small' ? 48 : 120}
      height={size === 'small' ? 72 : 180}
      loading="lazy"
      onError={onError}
    />
  )
}
