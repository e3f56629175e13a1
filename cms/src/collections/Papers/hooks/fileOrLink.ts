import type { Validate } from 'payload'

export const FILE_OR_LINK =
  "A paper's language version has a file or a link, not both: remove the file, or set the link to '#'."

/** An empty link or '#' means "no link". */
export const hasLink = (value: unknown): boolean =>
  typeof value === 'string' && value.trim() !== '' && value.trim() !== '#'

/**
 * A paper has a file or a link, not both: with both, the site would show the file and silently
 * drop the link. The editor chooses, whichever door the paper is saved through.
 */
export const fileOrLink: Validate = (value, { siblingData }) => {
  const file = (siblingData as { file?: unknown } | undefined)?.file
  const hasFile = file !== null && file !== undefined && file !== ''
  return hasFile && hasLink(value) ? FILE_OR_LINK : true
}
