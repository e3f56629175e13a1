import type { AddressInfo } from 'node:net'

import { SMTPServer } from 'smtp-server'

/** A message the loopback SMTP server took: its recipients, subject and raw text. */
export type Received = { to: string; subject: string; raw: string }

/**
 * A real SMTP server on loopback that keeps every message it takes. While `refusing()` says so
 * it answers MAIL FROM with 451 (a mailbox unavailable for now), as a server under trouble does.
 */
export async function startSmtpInbox({
  refusing = () => false,
}: { refusing?: () => boolean } = {}) {
  const inbox: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!refusing()) return callback()
      const error = new Error('Mailbox unavailable, try later') as Error & { responseCode: number }
      error.responseCode = 451
      callback(error)
    },
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()))
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '',
          raw,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    inbox,
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
