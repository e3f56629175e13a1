// The outside world of a production shop, on loopback, for the production bundle's test and the
// benchmark: CoinGecko's and CoinPaprika's price APIs (one server, their paths) and an SMTP
// server that keeps what it receives. The chain is the simulator (dist/chain-simulator.mjs), run
// as its own process. Types: outside-services.d.mts.
import fs from 'node:fs'
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

/** The first port the kernel hands out to a socket bound to port 0 (Linux's default below). */
function ephemeralLow() {
  try {
    const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)
    return Number(low) || 32768
  } catch {
    return 32768
  }
}

/**
 * A free TCP port on loopback, for processes that must be told theirs: free now, never one handed
 * out before in this process, and below the kernel's ephemeral range. The kernel gives a server
 * listening on port 0 (every test server that reports its own port) a port from that range, so a
 * port picked there could be taken between this call and the process told of it: a production
 * test once found its web port answered by another lane's chain simulator. Picked at random, so
 * two processes picking at once rarely try the same one.
 */
export async function freePort() {
  const high = ephemeralLow() - 1
  const low = Math.min(10_000, high - 1000)
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low + 1))
    if (handedOut.has(port)) continue
    const server = http.createServer()
    const bound = await new Promise((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (!bound) continue
    await new Promise((resolve) => server.close(() => resolve()))
    handedOut.add(port)
    return port
  }
}
