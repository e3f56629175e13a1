/** The `page` query of a paged admin list: 1 when absent, null when it is not a page number. */
export function pageOf(raw: unknown): number | null {
  if (raw === undefined) return 1
  return typeof raw === 'string' && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : null
}

export const BAD_PAGE = { error: 'Page must be a whole number from 1.' }
