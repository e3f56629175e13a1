import { Writable } from 'node:stream'

import { describe, expect, it } from 'vitest'

import { createLogger, prettyLogs } from './logger'

function capture() {
  const lines: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, destination }
}

/** Logs are readable lines in a developer's terminal, not raw pino JSON. */
describe('the logger', () => {
  it('writes one readable line in a developer terminal, with the order id first', () => {
    const { lines, destination } = capture()
    const logger = createLogger('info', 'web', { pretty: true, destination })
    logger.info({ orderId: 'abc-123' }, 'GET /api/orders/abc-123/info 200 3 ms')
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toMatch(/^\{/)
    expect(lines[0]).toMatch(
      /INFO.*\(web\).*\[order abc-123\] GET \/api\/orders\/abc-123\/info 200 3 ms/,
    )
  })

  it('writes JSON otherwise, and never a password', () => {
    const { lines, destination } = capture()
    createLogger('info', 'worker', { destination }).info({ user: { password: 'hunter2' } }, 'x')
    const line = JSON.parse(lines[0]!) as { name: string; user: { password: string } }
    expect(line.name).toBe('worker')
    expect(line.user.password).toBe('[redacted]')
  })

  it('is pretty only in test mode at a terminal', () => {
    expect(prettyLogs({ isProduction: true })).toBe(false)
    expect(prettyLogs({ isProduction: false })).toBe(process.stdout.isTTY === true)
  })
})
