import fc from 'fast-check'

/** Strings an attacker (or a broken client) sends: edge numbers, injections, unicode, giants. */
export const SPECIAL_STRINGS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '\u0000',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '-0',
  '0.5',
  '1.5',
  '-0.01',
  '1e309',
  '1e-7',
  '0x1f',
  ' 1 ',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  "' OR 1=1 --",
  '"; DROP TABLE orders; --',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)>',
  '${7*7}',
  '{{7*7}}',
  '\u202eevil',
  '\ud83d\ude00'.repeat(10),
  'a\u0301\u0302\u0303',
  '\ufeff',
  'true',
  '[]',
  '{}',
  '{"$gt":""}',
  'buyer@example.com\r\nBcc: all@example.com',
]

const HUGE_STRINGS = ['x'.repeat(70_000), '\u00fc'.repeat(20_000), '9'.repeat(400)]

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE_STRINGS) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
)

/** A short string safe for a URL or a header (the giants are tried in bodies). */
export const hostileShortString = hostileString.map((s) =>
  s.length > 1_000 ? s.slice(0, 1_000) : s,
)

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -1e15, max: 1e15 }),
  fc.double(),
  fc.constantFrom(-1, 0, -0, 0.5, 1.005, -0.01, 1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31),
)

export const pollutionKey = fc.constantFrom('__proto__', 'constructor', 'prototype')

/** Any JSON value, with hostile leaves and prototype-pollution keys. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(pollutionKey, fc.jsonValue({ maxDepth: 1 }))
      .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`)),
  },
)

/** JSON text of an object from its entries: keeps "__proto__" as a real key, drops undefined. */
export function objectText(entries: [string, unknown][]): string {
  return `{${entries
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join(',')}}`
}

/** Percent-encodes every byte but the unreserved ones (lone surrogates become U+FFFD). */
export function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')
}

/** Header-safe text (printable ASCII). */
export const headerText = fc
  .array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 80 })
  .map((codes) => String.fromCharCode(...codes).trim())

/** Raw (not encoded) path segments that are still legal on the request line. */
export const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e',
  '.',
  '..',
  '%00',
  '%C0%AE',
]
