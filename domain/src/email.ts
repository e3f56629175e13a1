/** The spec's e-mail check: non-empty and a simple pattern (the mail server has the last word). */
export function isEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
}
