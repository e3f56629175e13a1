import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { WebSocketServer } from 'ws'
import type { WebSocket } from 'ws'

import { addressOfScript, ChainRejection, createChainState } from './chain-state'
import type { ChainEvent } from './chain-state'

/**
 * The local chain simulator: an HTTP server speaking the WhatsOnChain subset the shop uses,
 * under /v1/bsv/{network}:
 *   GET  /chain/info                     -> { chain, blocks }
 *   POST /addresses/confirmed/history    -> [{ address, result: [{ tx_hash, height }], error }]
 *   POST /addresses/unconfirmed/history  -> [{ address, result: [{ tx_hash }], error }]
 *   GET  /tx/{txid}/hex                  -> raw hex
 *   POST /tx/raw { txhex }               -> "txid"
 * and WhatsOnChain's push stream (WoC Sockets V2) as a websocket:
 *   /websocket?channels=woc:mempoolTx,woc:blockHeader -> { channel, pub: { data } } per event
 * and, for tests and the dev tools only, under /simulator:
 *   POST /simulator/mine { blocks? }            -> { height }
 *   POST /simulator/faucet { address, satoshis } -> { txid } (coinbase-style funding)
 *   POST /simulator/outage { on }               -> {} (answers 503 to the WoC API while on)
 *   POST /simulator/push { on }                 -> {} (off: the push stream drops and refuses)
 *   GET  /healthz                                -> { ok, height, apiRequests }
 */

export type ChainSimulator = {
  url: string
  /** The WhatsOnChain base URL of this simulator, e.g. http://127.0.0.1:3100/v1/bsv/test */
  wocUrl: string
  state: ReturnType<typeof createChainState>
  setOutage: (on: boolean) => void
  /** The push stream's address, e.g. ws://127.0.0.1:3100/websocket */
  socketUrl: string
  /** Off: every push client is dropped and new ones are refused (polling must carry on). */
  setPush: (on: boolean) => void
  /** Push clients connected now. */
  pushClients: () => number
  /** WhatsOnChain API calls answered so far. */
  apiRequests: () => number
  close: () => Promise<void>
}

const MAX_BODY = 2 * 1024 * 1024

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0
    const parts: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new Error('body too large'))
        req.destroy()
        return
      }
      parts.push(chunk)
    })
    req.on('end', () => {
      try {
        resolve(parts.length ? JSON.parse(Buffer.concat(parts).toString('utf8')) : {})
      } catch (error) {
        reject(error)
      }
    })
    req.on('error', reject)
  })
}

export async function startChainSimulator({
  network = 'test',
  port = 0,
  host = '127.0.0.1',
  stateFile,
}: {
  network?: 'main' | 'test'
  port?: number
  host?: string
  stateFile?: string
} = {}): Promise<ChainSimulator> {
  const state = createChainState({ network, file: stateFile })
  let outage = false
  /** WhatsOnChain API calls answered so far (the benchmark's calls-per-minute count). */
  let apiRequests = 0
  const prefix = `/v1/bsv/${network}`

  const send = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    type: 'json' | 'text' = 'json',
  ) => {
    res.writeHead(status, { 'content-type': type === 'json' ? 'application/json' : 'text/plain' })
    res.end(type === 'json' ? JSON.stringify(body) : String(body))
  }

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator')
    const path = url.pathname
    const method = req.method ?? 'GET'

    if (path === '/simulator/mine' && method === 'POST') {
      const body = (await readJson(req)) as { blocks?: number }
      const blocks =
        Number.isInteger(body.blocks) && body.blocks! > 0 && body.blocks! <= 100 ? body.blocks! : 1
      return send(res, 200, { height: state.mine(blocks) })
    }
    if (path === '/simulator/faucet' && method === 'POST') {
      const body = (await readJson(req)) as { address?: string; satoshis?: number }
      if (
        typeof body.address !== 'string' ||
        !Number.isSafeInteger(body.satoshis) ||
        body.satoshis! <= 0
      ) {
        return send(res, 400, { error: 'address and satoshis are required' })
      }
      try {
        return send(res, 200, { txid: state.mint(body.address, body.satoshis!) })
      } catch (error) {
        return send(res, 400, { error: (error as Error).message })
      }
    }
    if (path === '/simulator/double-spend' && method === 'POST') {
      const body = (await readJson(req)) as { txid?: unknown }
      if (typeof body.txid !== 'string' || !/^[0-9a-f]{64}$/i.test(body.txid))
        return send(res, 400, { error: 'txid is required' })
      try {
        return send(res, 200, { txid: state.doubleSpend(body.txid.toLowerCase()) })
      } catch (error) {
        if (error instanceof ChainRejection) return send(res, 400, { error: error.message })
        throw error
      }
    }
    if (path === '/simulator/reorg' && method === 'POST') {
      const body = (await readJson(req)) as { blocks?: unknown }
      const blocks = Number(body.blocks ?? 1)
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > state.height)
        return send(res, 400, { error: 'blocks must be a whole number of blocks on the chain' })
      return send(res, 200, { height: state.reorg(blocks) })
    }
    if (path === '/simulator/outage' && method === 'POST') {
      outage = Boolean(((await readJson(req)) as { on?: boolean }).on)
      return send(res, 200, {})
    }
    if (path === '/simulator/push' && method === 'POST') {
      setPush(Boolean(((await readJson(req)) as { on?: boolean }).on))
      return send(res, 200, {})
    }
    if (path === '/healthz') return send(res, 200, { ok: true, height: state.height, apiRequests })

    if (!path.startsWith(`${prefix}/`)) return send(res, 404, 'Not found', 'text')
    apiRequests += 1
    if (outage) return send(res, 503, 'Service unavailable (simulated outage)', 'text')
    const route = path.slice(prefix.length)

    if (route === '/chain/info' && method === 'GET') {
      return send(res, 200, { chain: network, blocks: state.height, headers: state.height })
    }
    const history = /^\/addresses\/(confirmed|unconfirmed)\/history$/.exec(route)
    if (history && method === 'POST') {
      const body = (await readJson(req)) as { addresses?: unknown }
      const addresses = Array.isArray(body.addresses)
        ? body.addresses.filter((a): a is string => typeof a === 'string')
        : []
      if (addresses.length === 0 || addresses.length > 20)
        return send(res, 400, 'between 1 and 20 addresses', 'text')
      const kind = history[1] as 'confirmed' | 'unconfirmed'
      return send(
        res,
        200,
        addresses.map((address) => ({ address, result: state.history(address, kind), error: '' })),
      )
    }
    const block = /^\/block\/height\/(\d+)$/.exec(route)
    if (block && method === 'GET') {
      const height = Number(block[1])
      const time = state.blockTime(height)
      if (height > state.height || time === undefined) return send(res, 404, 'Not found', 'text')
      return send(res, 200, { height, time, confirmations: state.height - height + 1 })
    }
    const txInfo = /^\/tx\/hash\/([0-9a-f]{64})$/i.exec(route)
    if (txInfo && method === 'GET') {
      const txid = txInfo[1]!.toLowerCase()
      const found = state.status(txid)
      if (!found) return send(res, 404, 'Not found', 'text')
      return send(res, 200, {
        txid,
        blockheight: found.height ?? undefined,
        confirmations: found.height === null ? 0 : state.height - found.height + 1,
      })
    }
    const hex = /^\/tx\/([0-9a-f]{64})\/hex$/i.exec(route)
    if (hex && method === 'GET') {
      const found = state.getHex(hex[1]!.toLowerCase())
      return found ? send(res, 200, found, 'text') : send(res, 404, 'Not found', 'text')
    }
    if (route === '/tx/raw' && method === 'POST') {
      const body = (await readJson(req)) as { txhex?: unknown }
      if (typeof body.txhex !== 'string') return send(res, 400, 'txhex is required', 'text')
      try {
        return send(res, 200, state.submit(body.txhex))
      } catch (error) {
        if (error instanceof ChainRejection) return send(res, 400, error.message, 'text')
        throw error
      }
    }
    return send(res, 404, 'Not found', 'text')
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, `simulator error: ${(error as Error).message}`, 'text')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const { port: actual } = server.address() as AddressInfo
  const url = `http://${host}:${actual}`

  // WhatsOnChain's push stream: each client hears the channels it asked for.
  let push = true
  const sockets = new WebSocketServer({
    server,
    path: '/websocket',
    verifyClient: (_info, done) => done(push, 503, 'push stream off'),
  })
  const channelsOf = new WeakMap<WebSocket, Set<string>>()
  sockets.on('connection', (ws, req) => {
    const asked = new URL(req.url ?? '/', 'http://simulator').searchParams.get('channels') ?? ''
    channelsOf.set(ws, new Set(asked.split(',').filter(Boolean)))
    ws.on('message', (data) => {
      if (String(data) === 'ping') ws.send('pong')
    })
  })
  const publish = (channel: string, data: unknown) => {
    const text = JSON.stringify({ channel, pub: { data } })
    for (const ws of sockets.clients)
      if (ws.readyState === ws.OPEN && channelsOf.get(ws)?.has(channel)) ws.send(text)
  }
  const unsubscribe = state.subscribe((event: ChainEvent) => {
    if (event.kind === 'block')
      return publish('woc:blockHeader', { height: event.height, time: event.time })
    publish('woc:mempoolTx', {
      txid: event.txid,
      hex: event.tx.toHex(),
      vout: event.tx.outputs.map((output, n) => {
        const address = addressOfScript(output.lockingScript, network)
        return {
          n,
          value: (output.satoshis ?? 0) / 1e8,
          scriptPubKey: { hex: output.lockingScript.toHex(), addresses: address ? [address] : [] },
        }
      }),
    })
  })
  const setPush = (on: boolean) => {
    push = on
    if (!on) for (const ws of sockets.clients) ws.terminate()
  }

  return {
    url,
    wocUrl: `${url}${prefix}`,
    socketUrl: `ws://${host}:${actual}/websocket`,
    setPush,
    pushClients: () => sockets.clients.size,
    state,
    setOutage: (on) => {
      outage = on
    },
    apiRequests: () => apiRequests,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe()
        for (const ws of sockets.clients) ws.terminate()
        sockets.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
