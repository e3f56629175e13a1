/**
 * One CSV cell: quoted when it holds a comma, a quote or a line break; and a value a spreadsheet
 * would run as a formula (starting with = + - @, a tab or a carriage return) is prefixed with an
 * apostrophe, so an e-mail or an address typed at checkout can never become one (CWE-1236).
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvRow = (cells: (string | number | null | undefined)[]): string =>
  cells.map(csvCell).join(',')
