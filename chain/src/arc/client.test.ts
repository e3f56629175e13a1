import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { ChainSourceError } from '../types'
import type { ArcOptions } from './index'
import { ARC_SUBMIT_BATCH_MAX, ARC_TX_STATES, createArcClient } from './index'

/**
 * The ARC client's edges, against a local server that answers what each test scripts: what it
 * sends, which answers it refuses to read, which it retries and which it never does, and the
 * request budget it keeps.
 */

type Asked = {
  at: number
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}
type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang-up'

let server: http.Server
let baseUrl: string
let asked: Asked[] = []
/** The answers to give, in turn; the last one again once the list is spent. */
let script: Scripted[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (chunk: Buffer) => parts.push(chunk))
    req.on('end', () => {
      asked.push({
        at: Date.now(),
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
      })
      const answer = script.length > 1 ? script.shift()! : script[0]!
      if (answer === 'hang-up') return req.socket.destroy()
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {}))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  asked = []
  script = []
})

const client = (options: Partial<ArcOptions> = {}) =>
  createArcClient({
    baseUrl,
    maxRequestsPerSecond: 100,
    retryDelayMs: () => 10,
    ...options,
  })

const TXID = 'ab'.repeat(32)
const status = (fields: Record<string, unknown> = {}) => ({
  status: 200,
  body: {
    txid: TXID,
    txStatus: 'SEEN_ON_NETWORK',
    blockHash: '',
    blockHeight: 0,
    merklePath: '',
    extraInfo: '',
    timestamp: '2026-12-07T10:00:00Z',
    ...fields,
  },
})

async function rejection(promise: Promise<unknown>): Promise<ChainSourceError> {
  const error = await promise.catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ChainSourceError)
  return error as ChainSourceError
}

/** A signed transaction (never broadcast): its hex and txid. */
async function signedTransaction() {
  const key = PrivateKey.fromRandom()
  const parent = new Transaction()
  parent.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 10_000 })
  const tx = new Transaction()
  tx.addInput({
    sourceTransaction: parent,
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  })
  tx.addOutput({
    lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()),
    satoshis: 9_000,
  })
  await tx.sign()
  return { hex: tx.toHex(), txid: tx.id('hex') }
}

describe('reading a status', () => {
  it('maps every documented txStatus, and keeps a word it does not know as pending', async () => {
    for (const [txStatus, state] of Object.entries(ARC_TX_STATES)) {
      script = [status({ txStatus })]
      expect(await client().getTransaction(TXID)).toMatchObject({ state, sourceStatus: txStatus })
    }
    expect(Object.keys(ARC_TX_STATES)).toHaveLength(14)
    script = [status({ txStatus: 'SEEN_MULTIPLE_TIMES' })]
    expect(await client().getTransaction(TXID.toUpperCase())).toMatchObject({
      txid: TXID,
      state: 'pending',
      sourceStatus: 'SEEN_MULTIPLE_TIMES',
      blockHash: null,
      blockHeight: null,
      merklePath: null,
      extraInfo: null,
      competingTxs: [],
      timestamp: '2026-12-07T10:00:00Z',
    })
    expect(asked.at(-1)).toMatchObject({ method: 'GET', path: `/v1/tx/${TXID}` })
  })

  it('refuses an answer it cannot read, and counts it', async () => {
    const arc = client()
    const unreadable = [
      status({ txid: 'cd'.repeat(32) }),
      status({ txid: undefined }),
      status({ txStatus: undefined }),
      status({ blockHeight: -1 }),
      status({ blockHeight: 1.5 }),
      status({ blockHeight: '800000' }),
      status({ blockHash: 'not-a-hash' }),
      status({ merklePath: 'zz' }),
      // Hex, but no BUMP.
      status({ merklePath: '0000' }),
      // A BUMP (the docs' example) that does not hold this transaction.
      status({
        merklePath:
          'fe54251800020400028d97f9ebeddd9f9aa8e0e953b3a76f316298ab05e9834aa811716e9d397564e501025f64aa8e012e26a5c5803c9f94d1c2c8ea68ecef1415011e1c2e26b9c966b6ad02021f5fa39607ca3b48d53c902bd5bb4bbf6a7ac99cf9fda45cc21b71e6e2f7889603024a2bb116e86325c9b8512f10b22c228ab3272fe3f373b1bd4a9a6b334b068bb602000061793b278303101a1390ceae5a713de0eabd9cda63702fe84c928970acf7c45e0100a567e3d066e38638b27897559302eabc85eb69b202c2e86d4338bab73008f460',
      }),
      status({ competingTxs: ['not-a-txid'] }),
      status({ competingTxs: 'cd'.repeat(32) }),
      // As doc/api.md's generated example has them.
      status({ competingTxs: [['cd'.repeat(32)]] }),
      { status: 200, body: 'OK' },
      { status: 200, body: [] },
    ]
    for (const answer of unreadable) {
      script = [answer]
      const error = await rejection(arc.getTransaction(TXID))
      expect(error.message).toMatch(/cannot be read/)
    }
    expect(arc.stats().errorsByKind['bad-answer']).toBe(unreadable.length)
  })

  it('reads a 404 as unknown, and throws on a generic error', async () => {
    script = [{ status: 404, body: { status: 404, title: 'Not found' } }]
    const arc = client()
    expect(await arc.getTransaction(TXID)).toMatchObject({ txid: TXID, state: 'unknown' })
    expect(arc.stats().errorsByKind['not-found']).toBe(1)
    script = [{ status: 409, body: { status: 409, title: 'Generic error' } }]
    expect((await rejection(arc.getTransaction(TXID))).status).toBe(409)
    expect(asked).toHaveLength(2)
  })

  it('asks nothing for what is no txid', async () => {
    await expect(client().getTransaction('../policy')).rejects.toThrow(RangeError)
    await expect(client().submit('not hex')).rejects.toThrow(RangeError)
    await expect(client().submit('abcd')).rejects.toThrow(RangeError)
    expect(asked).toEqual([])
  })
})

describe('submitting', () => {
  it('sends { rawTx } as JSON with X-WaitFor: STORED and the Bearer key, and reads the status', async () => {
    const { hex, txid } = await signedTransaction()
    script = [status({ txid, txStatus: 'STORED', status: 200, title: 'OK' })]
    expect(await client({ apiKey: 'k3y' }).submit(hex)).toMatchObject({
      txid,
      state: 'pending',
      sourceStatus: 'STORED',
    })
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ method: 'POST', path: '/v1/tx' })
    expect(asked[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-waitfor': 'STORED',
      authorization: 'Bearer k3y',
    })
    expect(JSON.parse(asked[0]!.body)).toEqual({ rawTx: hex })
    expect(asked[0]!.headers['x-callbackurl']).toBeUndefined()
  })

  it('registers the callback on every submission when one is set (all status changes, one at a time)', async () => {
    const { hex, txid } = await signedTransaction()
    script = [status({ txid, txStatus: 'SEEN_ON_NETWORK', status: 200, title: 'OK' })]
    const callback = { url: 'https://shop.example/api/arc/callback', token: 'cb-t0ken' }
    await client({ callback }).submit(hex)
    expect(asked[0]!.headers).toMatchObject({
      'x-callbackurl': callback.url,
      'x-callbacktoken': callback.token,
      'x-fullstatusupdates': 'true',
    })
    expect(asked[0]!.headers['x-callbackbatch']).toBeUndefined()
    // Asking sends no callback headers.
    script = [status({ txid, txStatus: 'SEEN_ON_NETWORK' })]
    await client({ callback }).getTransaction(txid)
    expect(asked[1]!.headers['x-callbackurl']).toBeUndefined()
  })

  it('hands many over in lists of at most ARC_SUBMIT_BATCH_MAX, each answer read for its own transaction', async () => {
    const txs = await Promise.all(
      Array.from({ length: ARC_SUBMIT_BATCH_MAX + 1 }, () => signedTransaction()),
    )
    const answerFor = (tx: { txid: string }, i: number) =>
      i === 1
        ? { status: 465, title: 'Fee too low', detail: 'fee too low', txid: tx.txid }
        : status({ txid: tx.txid, txStatus: 'MINED', status: 200, title: 'OK' }).body
    script = [
      { status: 200, body: txs.slice(0, ARC_SUBMIT_BATCH_MAX).map(answerFor) },
      // The schema's shape: the list under `transactions`.
      { status: 200, body: { transactions: [answerFor(txs.at(-1)!, 0)] } },
    ]
    const outcomes = await client({ apiKey: 'k3y' }).submitAll(
      txs.map((t) => t.hex),
      { urgent: true },
    )
    expect(asked.map((a) => [a.method, a.path])).toEqual([
      ['POST', '/v1/txs'],
      ['POST', '/v1/txs'],
    ])
    expect(JSON.parse(asked[0]!.body)).toEqual(
      txs.slice(0, ARC_SUBMIT_BATCH_MAX).map((t) => ({ rawTx: t.hex })),
    )
    expect(asked[0]!.headers).toMatchObject({ 'x-waitfor': 'STORED', authorization: 'Bearer k3y' })
    expect(outcomes).toHaveLength(txs.length)
    expect(outcomes[0]).toMatchObject({ txid: txs[0]!.txid, state: 'mined' })
    expect(outcomes[1]).toBeInstanceOf(ChainSourceError)
    expect((outcomes[1] as ChainSourceError).status).toBe(465)
    expect(outcomes.at(-1)).toMatchObject({ txid: txs.at(-1)!.txid, state: 'mined' })
  })

  it('refuses a list whose answers do not match what was sent, for the whole call', async () => {
    const [a, b] = await Promise.all([signedTransaction(), signedTransaction()])
    script = [{ status: 200, body: [status({ txid: a.txid }).body] }]
    expect((await rejection(client().submitAll([a.hex, b.hex]))).message).toMatch(/1 answers/)
    script = [{ status: 200, body: [status({ txid: b.txid }).body, status({ txid: a.txid }).body] }]
    const swapped = await client().submitAll([a.hex, b.hex])
    expect(swapped.every((o) => o instanceof ChainSourceError)).toBe(true)
  })

  it('refuses a status about another transaction than the one sent', async () => {
    const { hex } = await signedTransaction()
    script = [status()]
    expect((await rejection(client().submit(hex))).message).toMatch(/not [0-9a-f]{64}/)
  })

  it("is a double-spend on a 466 naming the competing transactions, else ARC's refusal", async () => {
    const { hex, txid } = await signedTransaction()
    const competitor = 'cd'.repeat(32)
    script = [
      {
        status: 466,
        body: { status: 466, title: 'Conflicting tx found', txid, competingTxs: [competitor] },
      },
    ]
    expect(await client().submit(hex)).toMatchObject({
      txid,
      state: 'double-spend',
      sourceStatus: '466',
      competingTxs: [competitor],
    })
    script = [{ status: 466, body: { status: 466, title: 'Conflicting tx found', txid } }]
    expect((await rejection(client().submit(hex))).status).toBe(466)
    script = [
      { status: 465, body: { status: 465, title: 'Fee too low', detail: 'The fees are too low' } },
    ]
    const fee = await rejection(client().submit(hex))
    expect(fee.status).toBe(465)
    expect(fee.message).toContain(`ARC refused transaction ${txid}: 465 Fee too low`)
    // The code in the body wins over the HTTP status (422 carries ARC's 461).
    script = [{ status: 422, body: { status: 461, title: 'Malformed transaction' } }]
    expect((await rejection(client().submit(hex))).status).toBe(461)
    expect(asked).toHaveLength(4)
  })
})

describe('the key, the retries and the budget', () => {
  it('throws on 401 at once, saying the key was refused, without asking again', async () => {
    script = [{ status: 401, body: { status: 401, title: 'Unauthorized' } }, status()]
    const error = await rejection(client({ apiKey: 'wrong', retries: 5 }).getTransaction(TXID))
    expect(error.status).toBe(401)
    expect(error.message).toBe('ARC refused the API key (401)')
    expect(asked).toHaveLength(1)
    expect(asked[0]!.headers.authorization).toBe('Bearer wrong')
    asked = []
    script = [{ status: 401 }]
    expect((await rejection(client().getTransaction(TXID))).message).toMatch(/without an API key/)
    expect(asked[0]!.headers.authorization).toBeUndefined()
  })

  it('retries 5xx answers and a dropped connection with backoff, then gives up', async () => {
    script = [{ status: 502, body: 'Bad gateway' }, 'hang-up', status()]
    const arc = client({ retries: 2 })
    expect(await arc.getTransaction(TXID)).toMatchObject({ state: 'seen' })
    expect(asked).toHaveLength(3)
    expect(arc.stats().errorsByKind).toMatchObject({ server: 1, network: 1 })
    asked = []
    script = [{ status: 503 }]
    expect((await rejection(arc.getTransaction(TXID))).status).toBe(503)
    expect(asked).toHaveLength(3)
  })

  it('waits out a Retry-After given as an HTTP date, for every call', async () => {
    const until = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000)
    script = [{ status: 429, headers: { 'retry-after': until.toUTCString() } }, status()]
    const arc = client()
    const first = arc.getTransaction(TXID)
    while (arc.stats().throttledUntil === null) await new Promise((r) => setTimeout(r, 5))
    expect(arc.stats().throttledUntil!.getTime()).toBe(until.getTime())
    const second = arc.getTransaction(TXID)
    await Promise.all([first, second])
    expect(asked).toHaveLength(3)
    for (const later of asked.slice(1)) expect(later.at).toBeGreaterThanOrEqual(until.getTime())
    expect(arc.stats().errorsByKind.throttled).toBe(1)
  })

  it('fails at once on a window longer than it waits, and asks nothing inside it', async () => {
    script = [{ status: 429, headers: { 'retry-after': '3600' } }]
    const arc = client({ maxRetryAfterMs: 5_000 })
    const started = Date.now()
    expect((await rejection(arc.getTransaction(TXID))).status).toBe(429)
    expect((await rejection(arc.getTransaction(TXID))).status).toBe(429)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(asked).toHaveLength(1)
    expect(arc.stats().throttledUntil!.getTime()).toBeGreaterThan(Date.now() + 3_000_000)
  })

  it('begins at most maxRequestsPerSecond requests in any second', async () => {
    script = [status()]
    const arc = client({ maxRequestsPerSecond: 3 })
    await Promise.all(Array.from({ length: 7 }, () => arc.getTransaction(TXID)))
    expect(asked).toHaveLength(7)
    for (let i = 3; i < asked.length; i += 1)
      expect(asked[i]!.at - asked[i - 3]!.at).toBeGreaterThanOrEqual(1000)
    expect(arc.stats()).toMatchObject({ callsToday: 7, limitPerSecond: 3, capPerDay: null })
  })
})
