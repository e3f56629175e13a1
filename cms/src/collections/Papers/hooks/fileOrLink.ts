import type { Validate } from 'payload'

export const FILE_OR_LINK =
  "A paper's language version has a file or a link, not both: remove the file, or set the link to '#'."

/** An empty link or '#' means "no link". */
export const hasLink = (value: unknown): boolean =>
  typeof value === 'string' && value.trim() !== '' && value.trim() !== '#'

/**
 * A version with both a file and a link made the site show the file and silently drop the link
 * (issue 17): the editor now chooses, whichever door the paper is saved through.
 */
export const fileOrLink: Validate = (value, { siblingData }) => {
  const file = (siblingData as { file?: unknown } | undefined)?.file
  const hasFile = file !== null && file !== undefined && file !== ''
  return hasFile && hasLink(value) ? FILE_OR_LINK : true
}
