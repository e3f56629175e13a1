// The outside world of a production shop, on loopback, for the production bundle's test and the
// benchmark: CoinGecko's and CoinPaprika's price APIs (one server, their paths) and an SMTP
// server that keeps what it receives. The chain is the simulator (dist/chain-simulator.mjs), run
// as its own process. Types: outside-services.d.mts.
import http from 'node:http'

import { SMTPServer } from 'smtp-server'

export async function startRateSources(eurPerBsv) {
  const server = http.createServer((req, res) => {
    const url = req.url ?? ''
    const body = url.startsWith('/gecko/simple/price?ids=bitcoin-cash-sv&vs_currencies=eur')
      ? { 'bitcoin-cash-sv': { eur: eurPerBsv } }
      : url.startsWith('/paprika/tickers/bsv-bitcoin-sv?quotes=EUR')
        ? { quotes: { EUR: { price: eurPerBsv * 1.001 } } }
        : null
    if (!body) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${server.address().port}`
  return {
    coingeckoUrl: `${base}/gecko`,
    coinpaprikaUrl: `${base}/paprika`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export async function startSmtpServer() {
  const mails = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk) => (raw += chunk.toString('utf8')))
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        })
        callback()
      })
    },
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: server.server.address().port,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Ports this process has handed out already. */
const handedOut = new Set()

/**
 * A free TCP port on loopback, for processes that must be told theirs: free now, and never one
 * handed out before in this process. The kernel may give a port it just freed again at once: two
 * calls in a row once answered the same port (a fresh-clone CI run put Caddy's HTTP and HTTPS on
 * one port, and the shop never answered through it).
 */
export async function freePort() {
  for (;;) {
    const server = http.createServer()
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address()
    await new Promise((resolve) => server.close(() => resolve()))
    if (!handedOut.has(port)) {
      handedOut.add(port)
      return port
    }
  }
}
