/**
 * CSV for spreadsheets, after OWASP's advice on CSV injection (CWE-1236), so that text typed at
 * checkout (an e-mail, an address) can never become a formula:
 *
 * - every cell is quoted, its quotes doubled, so a comma, a semicolon, a tab or a line break
 *   inside it never starts another cell for a spreadsheet that reads quotes;
 * - a text cell that starts with a character a spreadsheet reads as the start of a formula
 *   (= + - @ after any spaces, a tab or a carriage return) gets an apostrophe in front, which
 *   spreadsheets read as "text follows";
 * - inside a text cell, such a character (= + - @) that follows a separator (a comma, a
 *   semicolon, a tab or a line break, then any spaces) gets an apostrophe in front of it too:
 *   a spreadsheet that splits on that separator without reading quotes (the semicolon is the
 *   usual separator where the decimal mark is a comma), or "text to columns" on it, then meets
 *   text, never a formula. The cell keeps every character it had; the apostrophes show where it
 *   was neutralised.
 *
 * Numbers are the shop's own values and stay as they are (a negative amount is not a formula).
 */
const FORMULA_START = /^(?: *[=+\-@]|[\t\r])/
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n] *)(?=[=+\-@])/g

/** A text cell's value with no formula to run, at its start or after a separator. */
function neutralised(text: string): string {
  const inside = text.replace(FORMULA_AFTER_SEPARATOR, "$1'")
  return FORMULA_START.test(inside) ? `'${inside}` : inside
}

/** One CSV cell: quoted, inner quotes doubled, a text's formulas neutralised. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value)
  const safe = typeof value === 'string' ? neutralised(text) : text
  return `"${safe.replace(/"/g, '""')}"`
}

export const csvRow = (cells: (string | number | null | undefined)[]): string =>
  cells.map(csvCell).join(',')
