import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import {
  LockingScript,
  MerklePath,
  P2PKH,
  PrivateKey,
  Transaction,
  UnlockingScript,
} from '@bsv/sdk'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { createArcClient, readArcCallbacks, UnreadableCallback } from './arc'
import type { ChainSimulator } from './simulator'
import { startChainSimulator } from './simulator'
import { ChainSourceError } from './types'

/**
 * ARC's documented example answers (simulator/fixtures/arc-docs) against both sides of the
 * shop's ARC edge: the simulator's stand-in answers each question in the shape the docs give,
 * for every status it produces, and the ARC client reads each answer as the docs print it.
 */

const FIXTURES = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'simulator/fixtures/arc-docs',
)
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>

// ---------------------------------------------------------------------------------------------
// Shapes: the same keys as the docs' answer, each of the same type. doc/arc.json marks these
// fields nullable, so null stands in for any type there.

const NULLABLE = new Set(['merklePath', 'extraInfo', 'competingTxs', 'instance', 'txid', 'reason'])

function shapeProblems(answer: unknown, docs: unknown, at = '$'): string[] {
  const key = at.split('.').at(-1)!
  if ((answer === null || docs === null) && NULLABLE.has(key)) return []
  if (Array.isArray(docs)) {
    if (!Array.isArray(answer)) return [`${at} is not a list`]
    if (docs.length === 0) return []
    return answer.flatMap((item, i) => shapeProblems(item, docs[0], `${at}[${i}]`))
  }
  if (docs !== null && typeof docs === 'object') {
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
      return [`${at} is not an object`]
    const got = answer as Record<string, unknown>
    const want = docs as Record<string, unknown>
    return [
      ...Object.keys(want)
        .filter((k) => !(k in got))
        .map((k) => `${at}.${k} is missing`),
      ...Object.keys(got)
        .filter((k) => !(k in want))
        .map((k) => `${at}.${k} is not in the docs`),
      ...Object.keys(want)
        .filter((k) => k in got)
        .flatMap((k) => shapeProblems(got[k], want[k], `${at}.${k}`)),
    ]
  }
  const type = (v: unknown) => (v === null ? 'null' : typeof v)
  return type(answer) === type(docs)
    ? []
    : [`${at} is ${type(answer)}, the docs have ${type(docs)}`]
}

const expectDocsShape = (answer: unknown, fixtureName: string) =>
  expect(shapeProblems(answer, fixture(fixtureName))).toEqual([])

/** A signed payment from fresh funding on `sim`, not yet on the chain. */
/** A signed transaction spending a parent no chain has (for the docs' answers, never sent on). */
async function unbroadcastTransaction() {
  const key = PrivateKey.fromRandom()
  const parent = new Transaction()
  parent.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 10_000 })
  const tx = new Transaction()
  tx.addInput({
    sourceTransaction: parent,
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  })
  tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 9_000 })
  await tx.sign()
  return tx
}

async function signedPayment(sim: ChainSimulator, fee = 500) {
  const key = PrivateKey.fromRandom()
  const funding = sim.state.mint(key.toAddress('testnet'), 20_000 + fee)
  const tx = new Transaction()
  tx.addInput({
    sourceTransaction: Transaction.fromHex(sim.state.getHex(funding)!),
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  })
  tx.addOutput({
    lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')),
    satoshis: 20_000,
  })
  await tx.sign()
  return { hex: tx.toHex(), txid: tx.id('hex') }
}

// ---------------------------------------------------------------------------------------------
// The stand-in, asked as a client would.

describe("the simulator's ARC stand-in answers in the docs' shapes", () => {
  let sim: ChainSimulator

  beforeEach(async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
  })

  afterEach(async () => {
    await sim?.close()
  })

  async function ask(method: 'GET' | 'POST', route: string, body?: unknown) {
    const response = await fetch(`${sim.arcUrl}${route}`, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
    })
    return {
      status: response.status,
      json: (await response.json()) as Record<string, unknown>,
      retryAfter: response.headers.get('retry-after'),
    }
  }

  const payment = (fee?: number) => signedPayment(sim, fee)

  it('SEEN_ON_NETWORK, as submitted (POST /v1/tx and /v1/txs) and asked (GET)', async () => {
    const { hex, txid } = await payment()
    const submitted = await ask('POST', '/v1/tx', { rawTx: hex })
    expect(submitted.status).toBe(200)
    expect(submitted.json).toMatchObject({ txid, txStatus: 'SEEN_ON_NETWORK', status: 200 })
    expectDocsShape(submitted.json, 'post-tx-seen-on-network.json')
    const asked = await ask('GET', `/v1/tx/${txid}`)
    expect(asked.json.txStatus).toBe('SEEN_ON_NETWORK')
    expectDocsShape(asked.json, 'get-tx-seen-on-network.json')
    const batch = await ask('POST', '/v1/txs', [{ rawTx: (await payment()).hex }])
    expectDocsShape(batch.json, 'post-txs-seen-on-network.json')
  })

  it('DOUBLE_SPEND_ATTEMPTED with competingTxs, then REJECTED once the competitor is mined', async () => {
    const { hex, txid } = await payment()
    await ask('POST', '/v1/tx', { rawTx: hex })
    const competitor = sim.state.doubleSpend(txid)
    const attempted = await ask('GET', `/v1/tx/${txid}`)
    expect(attempted.json).toMatchObject({
      txStatus: 'DOUBLE_SPEND_ATTEMPTED',
      competingTxs: [competitor],
    })
    expectDocsShape(attempted.json, 'get-tx-double-spend-attempted.json')
    sim.state.mine(1)
    const rejected = await ask('GET', `/v1/tx/${txid}`)
    expect(rejected.json).toMatchObject({
      txStatus: 'REJECTED',
      extraInfo: 'double spend attempted',
      competingTxs: [competitor],
    })
    expectDocsShape(rejected.json, 'get-tx-rejected.json')
  })

  it('MINED with blockHash, blockHeight and merklePath, then MINED_IN_STALE_BLOCK after a reorg', async () => {
    const { hex, txid } = await payment()
    await ask('POST', '/v1/tx', { rawTx: hex })
    const height = sim.state.mine(1)
    const mined = await ask('GET', `/v1/tx/${txid}`)
    expect(mined.json).toMatchObject({
      txStatus: 'MINED',
      blockHeight: height,
      blockHash: sim.state.header(height)!.hash,
    })
    expect(MerklePath.fromHex(mined.json.merklePath as string).computeRoot(txid)).toBe(
      sim.state.header(height)!.merkleRoot,
    )
    expectDocsShape(mined.json, 'get-tx-mined.json')
    // Submitted again: ARC answers the status it has now, alone or in a list.
    expectDocsShape((await ask('POST', '/v1/tx', { rawTx: hex })).json, 'post-tx-mined.json')
    const again = await ask('POST', '/v1/txs', [{ rawTx: hex }])
    expectDocsShape(again.json, 'post-txs-mined.json')
    expect((again.json as unknown as { merklePath: string }[])[0]!.merklePath).toBe(
      mined.json.merklePath,
    )
    sim.state.reorg(1)
    const stale = await ask('GET', `/v1/tx/${txid}`)
    expect(stale.json).toMatchObject({ txStatus: 'MINED_IN_STALE_BLOCK', blockHeight: height })
    expectDocsShape(stale.json, 'get-tx-mined-in-stale-block.json')
  })

  it('404 for a transaction never submitted to it', async () => {
    const { hex, txid } = await payment()
    sim.state.submit(hex)
    const unknown = await ask('GET', `/v1/tx/${txid}`)
    expect(unknown.status).toBe(404)
    expect(unknown.json.status).toBe(404)
    expectDocsShape(unknown.json, 'error-404.json')
  })

  it("its refusals with ARC's codes (460, 461, 463, 465)", async () => {
    const cheap = await payment(0)
    const fee = await ask('POST', '/v1/tx', { rawTx: cheap.hex })
    expect(fee).toMatchObject({ status: 465, json: { status: 465, txid: cheap.txid } })
    expectDocsShape(fee.json, 'error-465.json')

    const tooSmall = new Transaction()
    tooSmall.addInput({
      sourceTXID: 'cd'.repeat(32),
      sourceOutputIndex: 0,
      unlockingScript: new UnlockingScript(),
      sequence: 0xffffffff,
    })
    // 60 bytes: an input and an output with empty scripts, one byte under ARC's least.
    tooSmall.addOutput({ lockingScript: new LockingScript(), satoshis: 1 })
    const small = await ask('POST', '/v1/tx', { rawTx: tooSmall.toHex() })
    expect(small).toMatchObject({ status: 463, json: { status: 463 } })
    expectDocsShape(small.json, 'error-463.json')

    const parentless = new Transaction()
    parentless.addInput({
      sourceTXID: 'cd'.repeat(32),
      sourceOutputIndex: 0,
      unlockingScript: new UnlockingScript([{ op: 0 }]),
      sequence: 0xffffffff,
    })
    parentless.addOutput({
      lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')),
      satoshis: 1,
    })
    const missing = await ask('POST', '/v1/tx', { rawTx: parentless.toHex() })
    expect(missing.status).toBe(460)
    expectDocsShape(missing.json, 'error-460.json')

    const signed = Transaction.fromHex((await payment()).hex)
    const tampered = new Transaction()
    tampered.addInput({
      sourceTXID: signed.inputs[0]!.sourceTXID,
      sourceOutputIndex: 0,
      unlockingScript: signed.inputs[0]!.unlockingScript,
      sequence: 0xffffffff,
    })
    tampered.addOutput({ lockingScript: signed.outputs[0]!.lockingScript, satoshis: 19_000 })
    const scripts = await ask('POST', '/v1/tx', { rawTx: tampered.toHex() })
    expect(scripts.status).toBe(461)
    expectDocsShape(scripts.json, 'error-461.json')
  })

  it('401 without the key when one is required, 429 with Retry-After over its limit', async () => {
    await sim.close()
    sim = await startChainSimulator({
      backgroundTxPerSecond: 0,
      arcApiKey: 'docs-key',
      arcLimits: { perSecond: 1 },
    })
    const refused = await ask('GET', '/v1/health')
    expect(refused.status).toBe(401)
    expectDocsShape(refused.json, 'error-401.json')

    const withKey = (route: string) =>
      fetch(`${sim.arcUrl}${route}`, { headers: { authorization: 'Bearer docs-key' } })
    const health = await withKey('/v1/health')
    expect(health.status).toBe(200)
    expectDocsShape(await health.json(), 'health.json')
    const throttled = await withKey('/v1/policy')
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expectDocsShape(await throttled.json(), 'error-429.json')
  })

  it('the policy and the health check', async () => {
    const policy = await ask('GET', '/v1/policy')
    expect(policy.json).toMatchObject({ policy: { miningFee: { satoshis: 1, bytes: 1000 } } })
    expectDocsShape(policy.json, 'policy.json')
    expectDocsShape((await ask('GET', '/v1/health')).json, 'health.json')
  })
})

// ---------------------------------------------------------------------------------------------
// ARC as its docs print it: each answer a fixture, as it is.

describe("the ARC client reads the docs' answers", () => {
  type Served = { at: number; method: string; path: string; authorization?: string }
  let docsServer: http.Server
  let docsUrl: string
  const served: Served[] = []
  /** What GET /v1/tx/{txid} answers, by txid (404's fixture for any other). */
  const statuses = new Map<string, string>()
  /** What POST /v1/tx answers: a fixture and its HTTP status. */
  let submitAnswer = { name: 'post-tx-seen-on-network.json', status: 200 }
  /** What POST /v1/txs answers. */
  let submitAllAnswer = { name: 'post-txs-mined.json', status: 200 }
  /** The next answers are these, before the fixtures (a 429 or a 503). */
  let before: { status: number; headers?: Record<string, string>; name?: string }[] = []
  let requiredKey: string | undefined

  beforeAll(async () => {
    docsServer = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://docs')
        served.push({
          at: Date.now(),
          method: req.method ?? 'GET',
          path: url.pathname,
          authorization: req.headers.authorization,
        })
        const answer = (status: number, name: string, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers })
          res.end(fs.readFileSync(path.join(FIXTURES, name)))
        }
        if (requiredKey && req.headers.authorization !== `Bearer ${requiredKey}`)
          return answer(401, 'error-401.json')
        const next = before.shift()
        if (next) return answer(next.status, next.name ?? 'error-429.json', next.headers)
        const txid = /^\/v1\/tx\/([0-9a-f]{64})$/.exec(url.pathname)?.[1]
        if (req.method === 'GET' && txid) {
          const name = statuses.get(txid)
          return name ? answer(200, name) : answer(404, 'error-404.json')
        }
        if (req.method === 'POST' && url.pathname === '/v1/tx')
          return answer(submitAnswer.status, submitAnswer.name)
        if (req.method === 'POST' && url.pathname === '/v1/txs')
          return answer(submitAllAnswer.status, submitAllAnswer.name)
        answer(404, 'error-404.json')
      })
    })
    await new Promise<void>((resolve) => docsServer.listen(0, '127.0.0.1', resolve))
    docsUrl = `http://127.0.0.1:${(docsServer.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    docsServer.closeAllConnections()
    await new Promise((resolve) => docsServer.close(resolve))
  })

  beforeEach(() => {
    served.length = 0
    statuses.clear()
    before = []
    requiredKey = undefined
  })

  const client = (options: Partial<Parameters<typeof createArcClient>[0]> = {}) =>
    createArcClient({
      baseUrl: docsUrl,
      maxRequestsPerSecond: 50,
      retryDelayMs: () => 10,
      ...options,
    })

  /** Serves `name` for its own txid, and asks for it. */
  async function read(name: string) {
    const txid = fixture(name).txid as string
    statuses.set(txid, name)
    return client().getTransaction(txid)
  }

  async function refusal(promise: Promise<unknown>): Promise<ChainSourceError> {
    const error = await promise.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChainSourceError)
    return error as ChainSourceError
  }

  it('maps each status to its state, with what the answer says', async () => {
    expect(await read('get-tx-seen-on-network.json')).toEqual({
      txid: 'c0d6fce714e4225614f000c6a5addaaa1341acbb9c87115114dcf84f37b945a6',
      state: 'seen',
      sourceStatus: 'SEEN_ON_NETWORK',
      blockHash: null,
      blockHeight: null,
      merklePath: null,
      competingTxs: [],
      extraInfo: null,
      timestamp: '2023-03-09T12:03:48.382910514Z',
    })
    const mined = fixture('get-tx-mined.json')
    expect(await read('get-tx-mined.json')).toMatchObject({
      state: 'mined',
      blockHash: mined.blockHash,
      blockHeight: 736228,
      merklePath: mined.merklePath,
    })
    expect(await read('get-tx-mined-in-stale-block.json')).toMatchObject({
      state: 'stale',
      blockHeight: 736228,
    })
    expect(await read('get-tx-double-spend-attempted.json')).toMatchObject({
      state: 'double-spend',
      competingTxs: ['505097ba93702491a8a8e5c195a3d2706baf9d43af5e8898aeace0e251f240d2'],
    })
    expect(await read('get-tx-rejected.json')).toMatchObject({
      state: 'rejected',
      extraInfo: 'double spend attempted',
    })
    const unknown = await client().getTransaction('ef'.repeat(32))
    expect(unknown).toMatchObject({ txid: 'ef'.repeat(32), state: 'unknown' })
    expect(served.at(-1)).toMatchObject({ method: 'GET', path: `/v1/tx/${'ef'.repeat(32)}` })
  })

  it('refuses an answer for another txid, and merkle paths that are no BUMP', async () => {
    statuses.set('ef'.repeat(32), 'get-tx-mined.json')
    expect((await refusal(client().getTransaction('ef'.repeat(32)))).message).toMatch(
      /about b68b064b/,
    )
    // The docs' callback example cuts its merkle path short with "...".
    expect((await refusal(read('callback-mined.json'))).message).toMatch(/merklePath/)
    // The generated example: "0000" for a merkle path (and an array nested in competingTxs).
    expect((await refusal(read('get-tx-status.json'))).message).toMatch(/merklePath is no BUMP/)
  })

  it("throws ARC's refusals on submit with their codes, the 463 under HTTP 200 too", async () => {
    const tx = await unbroadcastTransaction()
    const codes = [400, 409, 460, 461, 462, 463, 464, 465, 466, 467, 468, 469, 471, 472, 473]
    for (const code of [...codes, 474, 475]) {
      submitAnswer = { name: `error-${code}.json`, status: code }
      expect((await refusal(client().submit(tx.toHex()))).status).toBe(code)
    }
    submitAnswer = { name: 'error-422.json', status: 422 }
    expect((await refusal(client().submit(tx.toHex()))).status).toBe(461)
    submitAnswer = { name: 'post-tx-error-463.json', status: 200 }
    const invalidOutputs = await refusal(client().submit(tx.toHex()))
    expect(invalidOutputs.status).toBe(463)
    expect(invalidOutputs.message).toContain('transaction output 0 satoshis is invalid')
    // The docs' success answers are for other transactions than this one.
    submitAnswer = { name: 'post-tx-mined.json', status: 200 }
    expect((await refusal(client().submit(tx.toHex()))).message).toMatch(/cannot be read/)
  })

  it("reads POST /v1/txs's list entry by entry, and a refusal of the whole call as a refusal", async () => {
    const hex = (await unbroadcastTransaction()).toHex()
    // The docs' list answers for another transaction than this one: that entry is refused,
    // the call is not.
    const [entry] = await client().submitAll([hex])
    expect(entry).toBeInstanceOf(ChainSourceError)
    expect((entry as ChainSourceError).message).toMatch(/about b68b064b/)
    expect(served.at(-1)).toMatchObject({ method: 'POST', path: '/v1/txs' })
    // One answer for two transactions: the call cannot be read.
    expect((await refusal(client().submitAll([hex, hex]))).message).toMatch(/1 answers/)
    submitAllAnswer = { name: 'error-465.json', status: 465 }
    expect((await refusal(client().submitAll([hex]))).status).toBe(465)
    submitAllAnswer = { name: 'post-txs-mined.json', status: 200 }
  })

  it('throws on 401 without retrying, with the status', async () => {
    requiredKey = 'docs-key'
    const error = await refusal(
      client({ apiKey: 'other', retries: 3 }).getTransaction('ef'.repeat(32)),
    )
    expect(error).toMatchObject({ status: 401, message: 'ARC refused the API key (401)' })
    expect(served).toEqual([expect.objectContaining({ authorization: 'Bearer other' })])
    expect(await client({ apiKey: 'docs-key' }).getTransaction('ef'.repeat(32))).toMatchObject({
      state: 'unknown',
    })
  })

  it("waits out 429's Retry-After before the next request, and retries a 5xx", async () => {
    before = [{ status: 429, headers: { 'retry-after': '1' } }]
    const arc = client()
    expect(await read('get-tx-seen-on-network.json')).toMatchObject({ state: 'seen' })
    before = [{ status: 429, headers: { 'retry-after': '1' } }]
    const txid = fixture('get-tx-seen-on-network.json').txid as string
    expect(await arc.getTransaction(txid)).toMatchObject({ state: 'seen' })
    const [refused, next] = served.slice(-2)
    expect(next!.at - refused!.at).toBeGreaterThanOrEqual(1000)
    expect(arc.stats().errorsByKind.throttled).toBe(1)

    before = [{ status: 503, name: 'error-409.json' }]
    expect(await arc.getTransaction(txid)).toMatchObject({ state: 'seen' })
    expect(served.slice(-2).map((s) => s.path)).toEqual([`/v1/tx/${txid}`, `/v1/tx/${txid}`])
    expect(arc.stats().errorsByKind.server).toBe(1)
  })
})

// ---------------------------------------------------------------------------------------------
// Callbacks: what the stand-in's Callbacker posts, and what the shop's receiver reads.

describe("ARC's callbacks, as the docs print them", () => {
  let sim: ChainSimulator
  let receiver: http.Server
  let receiverUrl: string
  let answers: number[] = []
  const received: { authorization?: string; contentType?: string; body: unknown }[] = []

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let text = ''
      req.on('data', (chunk: Buffer) => (text += chunk.toString()))
      req.on('end', () => {
        received.push({
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
          body: JSON.parse(text) as unknown,
        })
        res.statusCode = answers.shift() ?? 200
        res.end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/arc/callback`
  })

  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve))
  })

  beforeEach(async () => {
    received.length = 0
    answers = []
    sim = await startChainSimulator({ backgroundTxPerSecond: 0, arcCallbackPauseMs: 20 })
  })

  afterEach(async () => {
    await sim?.close()
  })

  const waitForCallbacks = async (count: number) => {
    const until = Date.now() + 5_000
    while (received.length < count && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 10))
    expect(received).toHaveLength(count)
  }

  const payment = () => signedPayment(sim)

  const submitWith = (hex: string, headers: Record<string, string>) =>
    fetch(`${sim.arcUrl}/v1/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ rawTx: hex }),
    })

  it('the receiver reads each documented callback, single or batched', () => {
    expect(readArcCallbacks(fixture('callback-double-spend-attempted.json'))).toEqual([
      {
        txid: '3d7770a2c3bbf890fe69ad33faadd3efb470b60d05b071eaa86e6597d480e111',
        txStatus: 'DOUBLE_SPEND_ATTEMPTED',
        timestamp: '2024-03-26T16:02:29.655390092Z',
      },
    ])
    expect(readArcCallbacks(fixture('callback-seen-on-network.json'))).toMatchObject([
      { txStatus: 'SEEN_ON_NETWORK' },
    ])
    // Its merkle path is cut short in the docs: the receiver does not read it.
    expect(readArcCallbacks(fixture('callback-mined.json'))).toMatchObject([
      {
        txid: '48ccf56b16ec11ddd9cfafc4f28492fb7e989d58594a0acd150a1592570ccd13',
        txStatus: 'MINED',
      },
    ])
    expect(readArcCallbacks(fixture('callbacks-batched.json')).map((c) => c.txStatus)).toEqual([
      'DOUBLE_SPEND_ATTEMPTED',
      'MINED',
    ])
  })

  it('the receiver refuses what is no callback, saying why', () => {
    const seen = fixture('callback-seen-on-network.json')
    const why = (body: unknown) => {
      try {
        readArcCallbacks(body)
      } catch (error) {
        expect(error).toBeInstanceOf(UnreadableCallback)
        return (error as Error).message
      }
      return 'read'
    }
    expect(why({ ...seen, txid: 'not-a-txid' })).toMatch(/txid is missing or not a txid/)
    expect(why({ ...seen, txStatus: undefined })).toMatch(/txStatus is missing/)
    expect(why({ ...seen, timestamp: undefined })).toMatch(/timestamp is missing/)
    expect(why([seen])).toMatch(/is not an object/)
    expect(why({ count: 2, callbacks: [seen] })).toMatch(/count is not the number/)
    expect(why({ count: 51, callbacks: Array(51).fill(seen) })).toMatch(/at most 50/)
    expect(why({ count: 1, callbacks: [{ ...seen, txid: 1 }] })).toMatch(/callbacks\[0\]: txid/)
  })

  it('posts DOUBLE_SPEND_ATTEMPTED with its competitor and the Bearer token, then REJECTED', async () => {
    const { hex, txid } = await payment()
    const submitted = await submitWith(hex, {
      'X-CallbackUrl': receiverUrl,
      'X-CallbackToken': 'callback-token',
      'X-FullStatusUpdates': 'true',
    })
    expect(submitted.status).toBe(200)
    const competitor = sim.state.doubleSpend(txid)
    await waitForCallbacks(1)
    expect(received[0]).toMatchObject({
      authorization: 'Bearer callback-token',
      contentType: 'application/json; charset=UTF-8',
      body: { txid, txStatus: 'DOUBLE_SPEND_ATTEMPTED', competingTxs: [competitor] },
    })
    expectDocsShape(received[0]!.body, 'callback-double-spend-attempted.json')
    expect(readArcCallbacks(received[0]!.body)).toMatchObject([{ txid }])
    sim.state.mine(1)
    await waitForCallbacks(2)
    expect(received[1]!.body).toMatchObject({ txid, txStatus: 'REJECTED' })
  })

  it('posts MINED with the block and a merkle path that proves it; only that without full updates', async () => {
    const { hex, txid } = await payment()
    await submitWith(hex, { 'X-CallbackUrl': receiverUrl })
    const other = await payment()
    await submitWith(other.hex, { 'X-CallbackUrl': receiverUrl, 'X-FullStatusUpdates': 'true' })
    sim.state.doubleSpend(other.txid)
    await waitForCallbacks(1)
    expect(received[0]!.body).toMatchObject({ txid: other.txid })
    const height = sim.state.mine(1)
    await waitForCallbacks(3)
    const mined = received.find((r) => (r.body as { txid: string }).txid === txid)!
    expect(mined.authorization).toBeUndefined()
    expect(mined.body).toMatchObject({
      txid,
      txStatus: 'MINED',
      blockHeight: height,
      blockHash: sim.state.header(height)!.hash,
    })
    expectDocsShape(mined.body, 'callback-mined.json')
    const path = (mined.body as { merklePath: string }).merklePath
    expect(MerklePath.fromHex(path).computeRoot(txid)).toBe(sim.state.header(height)!.merkleRoot)
  })

  it('sends a callback again until the receiver takes it, and none while switched off', async () => {
    answers = [500, 503]
    const { hex, txid } = await payment()
    await submitWith(hex, { 'X-CallbackUrl': receiverUrl, 'X-FullStatusUpdates': 'true' })
    sim.state.doubleSpend(txid)
    await waitForCallbacks(3)
    expect(received.map((r) => (r.body as { txStatus: string }).txStatus)).toEqual([
      'DOUBLE_SPEND_ATTEMPTED',
      'DOUBLE_SPEND_ATTEMPTED',
      'DOUBLE_SPEND_ATTEMPTED',
    ])
    // The receiver has the third attempt before the stand-in has its answer.
    await expect.poll(() => sim.arcCallbacks()).toMatchObject([{ attempts: 3, outcome: 200 }])

    sim.setArcCallbacks(false)
    sim.state.mine(1)
    expect(
      (await fetch(`${sim.arcUrl}/v1/tx/${txid}`).then((r) => r.json())) as object,
    ).toMatchObject({
      txStatus: 'REJECTED',
    })
    await sim.close()
    expect(received).toHaveLength(3)
  })
})
