/**
 * Link helpers the storefront runs in the browser. Kept apart from contracts.ts (zod) so a page
 * that only needs them does not download zod.
 */

/** '#' or an empty value means "not yet available": the link is shown disabled. */
export function isAvailableLink(link: string | null | undefined): link is string {
  return typeof link === 'string' && link.trim() !== '' && link.trim() !== '#'
}
