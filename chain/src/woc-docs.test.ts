import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { PrivateKey, Transaction } from '@bsv/sdk'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'

import { merklePathFromTsc } from './merkle'
import { headerProblem } from './proof'
import { createWhatsOnChainClient } from './whatsonchain'
import type { ChainSimulator } from './simulator'
import { payFromTestWallet, startChainSimulator } from './simulator'

/**
 * WhatsOnChain's documented example answers (simulator/fixtures/woc-docs) against both sides
 * of the shop's chain edge: the client reads each one as WhatsOnChain serves it, and the
 * simulator answers the same request in the same shape. The two were written side by side and
 * agreed with each other; now each must agree with the docs.
 */

const FIXTURES = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'simulator/fixtures/woc-docs',
)
const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'))
const fixtureText = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8')

// ---------------------------------------------------------------------------------------------
// Shapes: which keys an answer has, of which types, and which keys every item has.

type Shape =
  | { type: string }
  | { array: Shape | undefined }
  | { object: Record<string, { shape: Shape; always: boolean }> }

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value))
    return { array: value.map(shapeOf).reduce<Shape | undefined>((a, b) => merge(a, b), undefined) }
  if (value !== null && typeof value === 'object')
    return {
      object: Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, { shape: shapeOf(v), always: true }]),
      ),
    }
  return { type: value === null ? 'null' : typeof value }
}

function merge(a: Shape | undefined, b: Shape | undefined): Shape | undefined {
  if (!a) return b
  if (!b) return a
  if ('array' in a && 'array' in b) return { array: merge(a.array, b.array) }
  if ('object' in a && 'object' in b) {
    const keys = new Set([...Object.keys(a.object), ...Object.keys(b.object)])
    return {
      object: Object.fromEntries(
        [...keys].map((k) => {
          const x = a.object[k]
          const y = b.object[k]
          return [k, { shape: merge(x?.shape, y?.shape)!, always: Boolean(x?.always && y?.always) }]
        }),
      ),
    }
  }
  const types = new Set([describeShape(a), describeShape(b)])
  return { type: [...types].sort().join('|') }
}

const describeShape = (s: Shape) => ('type' in s ? s.type : 'array' in s ? 'array' : 'object')

/** Where `actual` departs from `expected` (the docs' shape): missing, extra or retyped keys. */
function shapeProblems(actual: Shape, expected: Shape, at = '$'): string[] {
  if ('array' in expected && 'array' in actual) {
    if (!expected.array || !actual.array) return []
    return shapeProblems(actual.array, expected.array, `${at}[]`)
  }
  if ('object' in expected && 'object' in actual) {
    const problems: string[] = []
    for (const [key, want] of Object.entries(expected.object)) {
      const got = actual.object[key]
      if (!got) {
        if (want.always) problems.push(`${at}.${key} is missing`)
        continue
      }
      if (want.always && !got.always) problems.push(`${at}.${key} is sometimes missing`)
      problems.push(...shapeProblems(got.shape, want.shape, `${at}.${key}`))
    }
    for (const key of Object.keys(actual.object))
      if (!(key in expected.object)) problems.push(`${at}.${key} is not in the docs`)
    return problems
  }
  const got = describeShape(actual)
  const want = describeShape(expected)
  return got === want ? [] : [`${at} is ${got}, the docs have ${want}`]
}

const expectSameShape = (answer: unknown, fixtureName: string) =>
  expect(shapeProblems(shapeOf(answer), shapeOf(fixture(fixtureName)))).toEqual([])

// ---------------------------------------------------------------------------------------------
// WhatsOnChain as its docs print it: each route answers a fixture, as it is.

type Served = { method: string; path: string; query: URLSearchParams; body: unknown }

let docsServer: http.Server
let docsUrl: string
const served: Served[] = []
/** Which fixture answers the bulk confirmed history (the error test swaps it). */
let confirmedFixture = 'bulk-confirmed-history.json'
/** Which fixture answers the next single-address confirmed history page, in turn. */
let singleConfirmedPages: string[] = []

const DOCS_ROUTES: Record<string, (s: Served) => string | undefined> = {
  'POST /addresses/confirmed/history': () => confirmedFixture,
  'POST /addresses/unconfirmed/history': () => 'bulk-unconfirmed-history.json',
  'POST /addresses/history/all': () => 'history-all.json',
  'GET /address/1CQuHnTR1HExx9KBvwuzeERx7CZmVkFtPs/confirmed/history': () =>
    singleConfirmedPages.shift() ?? 'address-confirmed-history.json',
  'GET /address/1QC6bjxvSBdiHqGM48t5RxjTEYW6BX4vu4/unconfirmed/history': () =>
    'address-unconfirmed-history.json',
  'GET /tx/hash/c1d32f28baa27a376ba977f6a8de6ce0a87041157cef0274b20bfda2b0d8df96': () =>
    'tx-hash.json',
  // The same transaction, answered as the docs say an unconfirmed one is.
  'GET /tx/hash/1111111111111111111111111111111111111111111111111111111111111111': () =>
    'tx-hash-unconfirmed.json',
  'POST /utxos/spent': () => 'utxos-spent.json',
  'GET /chain/info': () => 'chain-info.json',
  'GET /block/hash/000000000000000004a288072ebb35e37233f419918f9783d499979cb6ac33eb': () =>
    'block-hash.json',
  // The docs print one block answer; by height it is the same block's.
  'GET /block/height/575045': () => 'block-hash.json',
  'GET /block/000000000000000004a288072ebb35e37233f419918f9783d499979cb6ac33eb/header': () =>
    'block-header.json',
  'GET /tx/c1d32f28baa27a376ba977f6a8de6ce0a87041157cef0274b20bfda2b0d8df96/proof/tsc': () =>
    'tx-proof-tsc.json',
}

beforeAll(async () => {
  docsServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://docs')
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => {
      const route = url.pathname.replace(/^\/v1\/bsv\/main/, '')
      const text = Buffer.concat(parts).toString('utf8')
      const s: Served = {
        method: req.method ?? 'GET',
        path: route,
        query: url.searchParams,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      }
      served.push(s)
      const name = DOCS_ROUTES[`${s.method} ${route}`]?.(s)
      if (!name) {
        res.writeHead(404, { 'content-type': 'text/plain' })
        res.end('Not found')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(fixtureText(name))
    })
  })
  await new Promise<void>((resolve) => docsServer.listen(0, '127.0.0.1', resolve))
  docsUrl = `http://127.0.0.1:${(docsServer.address() as AddressInfo).port}/v1/bsv/main`
})

afterAll(async () => {
  docsServer?.closeAllConnections()
  await new Promise((resolve) => docsServer?.close(resolve))
})

beforeEach(() => {
  served.length = 0
  confirmedFixture = 'bulk-confirmed-history.json'
  singleConfirmedPages = []
})

const docsClient = () =>
  createWhatsOnChainClient({ baseUrl: docsUrl, maxRequestsPerSecond: 100, retries: 0 })

// ---------------------------------------------------------------------------------------------
// The simulator, set up to hold what each example shows.

let sim: ChainSimulator
/** Two confirmed transactions (each). */
let few: string
let pair: string
/** 25 confirmed transactions (more than a bulk confirmed page) and two in the mempool. */
let many: string
/** Four in the mempool (more than this simulator's bulk unconfirmed page of 3). */
let busy: string
/** Outputs spent by a payment from the test wallet. */
const spentOutputs: { txid: string; vout: number }[] = []
let minedTxid: string
let mempoolTxid: string

const newAddress = () => PrivateKey.fromRandom().toAddress('testnet')

beforeAll(async () => {
  // Caps counted per address (one of the two readings of the docs), a small mempool page.
  sim = await startChainSimulator({ pages: { bulkUnconfirmed: 3, capCounting: 'address' } })
  ;[few, pair, many, busy] = [newAddress(), newAddress(), newAddress(), newAddress()]
  for (const address of [few, pair]) {
    sim.state.mint(address, 1000)
    sim.state.mint(address, 2000)
  }
  for (let i = 0; i < 25; i += 1) sim.state.mint(many, 600 + i)
  const client = createWhatsOnChainClient({ baseUrl: sim.wocUrl, maxRequestsPerSecond: 100 })
  for (const satoshis of [5000, 6000]) {
    const paid = await payFromTestWallet({
      chain: client,
      wocUrl: sim.wocUrl,
      network: 'test',
      address: newAddress(),
      satoshis,
    })
    const { sourceTXID, sourceOutputIndex } = Transaction.fromHex(sim.state.getHex(paid)!)
      .inputs[0]!
    spentOutputs.push({ txid: sourceTXID!, vout: sourceOutputIndex })
  }
  minedTxid = sim.state.mint(newAddress(), 700)
  sim.state.mine(1)
  sim.state.mint(many, 9000)
  sim.state.mint(many, 9001)
  for (let i = 0; i < 4; i += 1) sim.state.mint(busy, 100 + i)
  mempoolTxid = sim.state.mint(newAddress(), 800)
})

afterAll(async () => {
  await sim?.close()
})

async function ask(method: 'GET' | 'POST', route: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sim.wocUrl}${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  })
  expect(response.status).toBe(200)
  return response.json()
}

// ---------------------------------------------------------------------------------------------

describe("the docs' bulk confirmed history", () => {
  it('is read to its end by the client, through the single-address endpoint', async () => {
    // The page after the bulk answer carries a token itself; the one after it does not.
    singleConfirmedPages = ['address-confirmed-history-next-page.json']
    const histories = await docsClient().getAddressHistories(
      ['16ZBEb7pp6mx5EAGrdeKivztd5eRJFuvYP', '1CQuHnTR1HExx9KBvwuzeERx7CZmVkFtPs'],
      'confirmed',
    )
    expect(histories.get('16ZBEb7pp6mx5EAGrdeKivztd5eRJFuvYP')).toEqual([
      { txid: '6216506e2b5ef029595e1b29a20c279889873a9da4e98bcb5c619a4756ab6932', height: 658093 },
      { txid: 'df860638d1530d2ba1f25d167fa24bbef3b1387e94207ee5e11fa535413aff39', height: 658093 },
    ])
    expect(histories.get('1CQuHnTR1HExx9KBvwuzeERx7CZmVkFtPs')).toEqual([
      { txid: '817bc35394ce8ad598d7dfe37efc01f719bc1caa079d7f83ea3c51254af40277', height: 666566 },
      { txid: 'b781592ecb45b7587729e7e7b764e6e369f0259b3323470292c004410a4e0ddb', height: 666566 },
      { txid: '6cc9631ef3dad77eb0141134167f20469d0b4e61405de57fe6a9ac71b943bb9f', height: 797518 },
    ])
    const token = (fixture('bulk-confirmed-history.json') as { nextPageToken?: string }[])[1]!
      .nextPageToken
    const pages = served.filter((s) => s.method === 'GET')
    expect(pages.map((s) => s.query.get('token'))).toEqual([token, token])
  })

  it('is answered in the same shape by the simulator, cut with a token where it is long', async () => {
    const answer = (await ask('POST', '/addresses/confirmed/history', {
      addresses: [few, many],
    })) as { result: unknown[]; nextPageToken?: string }[]
    expect(answer[0]!.result).toHaveLength(2)
    expect(answer[1]!.result).toHaveLength(20)
    expect(answer[1]!.nextPageToken).toBeTruthy()
    expectSameShape(answer, 'bulk-confirmed-history.json')
    const single = await ask('GET', `/address/${few}/confirmed/history`)
    expectSameShape(single, 'address-confirmed-history.json')
    const next = await ask(
      'GET',
      `/address/${many}/confirmed/history?token=${answer[1]!.nextPageToken}&limit=1`,
    )
    expectSameShape(next, 'address-confirmed-history-next-page.json')
  })
})

describe("the docs' bulk unconfirmed history", () => {
  it('is read to its end by the client', async () => {
    const histories = await docsClient().getAddressHistories(
      ['1QC6bjxvSBdiHqGM48t5RxjTEYW6BX4vu4', '1AyWnLhRYqt5VcGvVmXpieCbY3agHk53cJ'],
      'unconfirmed',
    )
    expect(histories.get('1QC6bjxvSBdiHqGM48t5RxjTEYW6BX4vu4')?.map((t) => t.txid)).toEqual([
      '36f1ed66752c78c6d1e8e73a060002b056015ef646e01508e8802bd8cb180b2d',
      '2cd3963137335c982005fae40846c269cf022061cae0a28f7bccf6d53a0252c6',
      '2fde4146ae470efb337395987261b028c38e4e095b44ae3bc800c4073daf4730',
      '3570f77cc006b507b4198370b0f97adbbdf3a83c84fe3b72c1cb0579ec34ca9f',
    ])
    expect(histories.get('1AyWnLhRYqt5VcGvVmXpieCbY3agHk53cJ')).toEqual([
      { txid: '2fde4146ae470efb337395987261b028c38e4e095b44ae3bc800c4073daf4730', height: null },
      { txid: '3570f77cc006b507b4198370b0f97adbbdf3a83c84fe3b72c1cb0579ec34ca9f', height: null },
    ])
    expect(served.find((s) => s.method === 'GET')?.query.get('token')).toBe(
      '890dc80865d1259528b1ec07e82d02efb77f1bcd9dbd714874bf1d00a54106f5',
    )
  })

  it('is answered in the same shape by the simulator', async () => {
    const answer = (await ask('POST', '/addresses/unconfirmed/history', {
      addresses: [busy, many],
    })) as { result: unknown[]; nextPageToken?: string }[]
    expect(answer[0]!.result).toHaveLength(3)
    expect(answer[0]!.nextPageToken).toBeTruthy()
    expectSameShape(answer, 'bulk-unconfirmed-history.json')
    expectSameShape(
      await ask('GET', `/address/${many}/unconfirmed/history`),
      'address-unconfirmed-history.json',
    )
  })
})

describe("the docs' history of confirmed and unconfirmed transactions (history/all)", () => {
  it('is read by the client in one call', async () => {
    const histories = await docsClient().getAddressHistories(
      ['16ZBEb7pp6mx5EAGrdeKivztd5eRJFuvYP', '19SsDUJ29XM2VDCkZKnTXJ9Zjt3gMtnrwC'],
      'all',
    )
    expect(histories.get('19SsDUJ29XM2VDCkZKnTXJ9Zjt3gMtnrwC')).toEqual([
      { txid: '06f978c8758b45aa298e74d2951123811da06d9b22ad433fcaeceb90fb3db6cd', height: 825487 },
      { txid: '064cad8a9ff3caad45579ee514d6a352f402ab02ed355bc9d4f9fce3eac07813', height: 825488 },
    ])
    expect(histories.get('16ZBEb7pp6mx5EAGrdeKivztd5eRJFuvYP')).toHaveLength(2)
    expect(served.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /addresses/history/all'])
  })

  it('is answered in the same shape by the simulator', async () => {
    expectSameShape(
      await ask('POST', '/addresses/history/all', { addresses: [few, pair] }),
      'history-all.json',
    )
  })
})

describe("the docs' error for one address of a bulk answer", () => {
  it('leaves that address out and reports it, and the client reads the others', async () => {
    confirmedFixture = 'error-entry.json'
    const client = docsClient()
    const addresses = ['16ZBEb7pp6mx5EAGrdeKivztd5eRJFuvYP', '1CQuHnTR1HExx9KBvwuzeERx7CZmVkFtPs']
    const histories = await client.getAddressHistories(addresses, 'confirmed')
    expect([...histories.keys()]).toEqual(['16ZBEb7pp6mx5EAGrdeKivztd5eRJFuvYP'])
    const detailed = await client.getAddressHistoriesDetailed!(addresses, 'confirmed')
    expect(detailed.failed).toEqual(
      new Map([['1CQuHnTR1HExx9KBvwuzeERx7CZmVkFtPs', 'Failed to get history']]),
    )
  })

  it('is answered in the same shape by the simulator', async () => {
    sim.setFaults({ historyErrorAddresses: [many] })
    try {
      const answer = (await ask('POST', '/addresses/confirmed/history', {
        addresses: [few, many],
      })) as { error: string }[]
      expect(answer.map((e) => e.error)).toEqual(['', 'Failed to get history'])
      expectSameShape(answer, 'error-entry.json')
    } finally {
      sim.clearFaults()
    }
  })
})

describe("the docs' transaction (/tx/hash)", () => {
  it('is read by the client (confirmed, or in the mempool without block fields), and the simulator answers in its shape', async () => {
    const client = docsClient()
    expect(
      await client.getTransactionStatus(
        'c1d32f28baa27a376ba977f6a8de6ce0a87041157cef0274b20bfda2b0d8df96',
      ),
    ).toBe('confirmed')
    expect(await client.getTransactionStatus('1'.repeat(64))).toBe('mempool')
    // The simulator gives the block fields only once mined.
    const mined = (await ask('GET', `/tx/hash/${minedTxid}`)) as { blockheight?: number }
    expect(mined.blockheight).toBeGreaterThan(0)
    expectSameShape(mined, 'tx-hash.json')
    const waiting = (await ask('GET', `/tx/hash/${mempoolTxid}`)) as { blockheight?: number }
    expect(waiting.blockheight).toBeUndefined()
    expectSameShape(waiting, 'tx-hash-unconfirmed.json')
  })
})

describe("the docs' spent outputs", () => {
  it('are read by the client as the transactions that spent them', async () => {
    const spent = await docsClient().getSpentBy!([
      { txid: '87645a7c4a9a5a9b9cd1468db19cdba44129c35cc487fc57c4d8843141ad2551', vout: 2 },
      { txid: 'c6647a562ac6a3cce0f46c2fb2b417cbd5daf1258f2a96d7556e6b9304f2889a', vout: 0 },
    ])
    expect(spent).toEqual(
      new Map([
        [
          '87645a7c4a9a5a9b9cd1468db19cdba44129c35cc487fc57c4d8843141ad2551:2',
          '88d8ce011179fac0dc466a1c5fcb734a91b076d15354aee4f7186ea3f5921533',
        ],
        [
          'c6647a562ac6a3cce0f46c2fb2b417cbd5daf1258f2a96d7556e6b9304f2889a:0',
          '1574a7952dc989481a17a7c4f1db3c6ae7bd112383ff946d913cdfe161f039dd',
        ],
      ]),
    )
  })

  it('are answered in the same shape by the simulator, one by one and in bulk', async () => {
    const [first] = spentOutputs
    expectSameShape(
      await ask('GET', `/tx/${first!.txid}/${first!.vout}/spent`),
      'tx-vout-spent.json',
    )
    expectSameShape(await ask('POST', '/utxos/spent', { utxos: spentOutputs }), 'utxos-spent.json')
  })
})

describe("the docs' chain info", () => {
  it('gives the client the height, and the simulator answers in the same shape', async () => {
    expect(await docsClient().getTipHeight()).toBe(905064)
    expectSameShape(await ask('GET', '/chain/info'), 'chain-info.json')
  })
})

/** Block 575045 as the docs' block and header answers give it. */
const DOCS_HEADER = {
  height: 575045,
  hash: '000000000000000004a288072ebb35e37233f419918f9783d499979cb6ac33eb',
  version: 536928256,
  previousHash: '00000000000000000988156c7075dc9147a5b62922f1310862e8b9000d46dd9b',
  merkleRoot: '4ebcba09addd720991d03473f39dce4b9a72cc164e505cd446687a54df9b1585',
  time: 1553416668,
  bits: 0x180997ee,
  nonce: 87914848,
}

/** An answer without one key (compared on its own against another fixture). */
const without = (answer: unknown, key: string) => {
  const { [key]: _left, ...rest } = answer as Record<string, unknown>
  return rest
}

describe("the docs' block (/block/hash, /block/height)", () => {
  it('gives the client the header of block 575045, which holds', async () => {
    const header = await docsClient().getBlockHeader(575045)
    expect(header).toEqual(DOCS_HEADER)
    expect(headerProblem(header!)).toBeNull()
    expect(served.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /block/height/575045'])
  })

  it('is answered in the same shape by the simulator, by hash and by height', async () => {
    const height = sim.state.status(minedTxid)!.height!
    const byHeight = (await ask('GET', `/block/height/${height}`)) as Record<string, unknown>
    const byHash = await ask('GET', `/block/hash/${sim.state.blockHash(height)}`)
    expect(byHash).toEqual(byHeight)
    expect(byHeight.tx).toContain(minedTxid)
    expect(byHeight.bits).toBe('207fffff')
    const docs = fixture('block-hash.json')
    expect(
      shapeProblems(shapeOf(without(byHeight, 'coinbaseTx')), shapeOf(without(docs, 'coinbaseTx'))),
    ).toEqual([])
    // The coinbase is a transaction as /tx/hash describes one (the docs' example breaks off
    // inside it, in the same keys).
    expectSameShape(byHeight.coinbaseTx, 'tx-hash-unconfirmed.json')
  })
})

describe("the docs' header (/block/{hash}/header)", () => {
  it('gives the client the header of block 575045 by its hash', async () => {
    expect(await docsClient().getBlockHeader(DOCS_HEADER.hash)).toEqual(DOCS_HEADER)
    expect(served.map((s) => s.path)).toEqual([`/block/${DOCS_HEADER.hash}/header`])
  })

  it('is answered in the same shape by the simulator, by hash and by height', async () => {
    const height = sim.state.status(minedTxid)!.height!
    const byHash = await ask('GET', `/block/${sim.state.blockHash(height)}/header`)
    expectSameShape(byHash, 'block-header.json')
    expect(await ask('GET', `/block/${height}/header`)).toEqual(byHash)
  })
})

describe("the docs' TSC merkle proof (/tx/{txid}/proof/tsc)", () => {
  it('leads from its transaction to the merkle root of its block', () => {
    const [proof] = fixture('tx-proof-tsc.json') as {
      index: number
      txOrId: string
      nodes: string[]
    }[]
    const path = merklePathFromTsc({ txid: proof!.txOrId, ...proof!, blockHeight: 575191 })
    // Block 575191's merkle root, as WhatsOnChain's older /tx/{txid}/proof example gave it.
    expect(path.computeRoot(proof!.txOrId)).toBe(
      '95a920b1002bed05379a0d2650bb13eb216138f28ee80172f4cf21048528dc60',
    )
  })

  it('is read by the client, which looks up the header of its target (the docs print none: no proof)', async () => {
    const txid = 'c1d32f28baa27a376ba977f6a8de6ce0a87041157cef0274b20bfda2b0d8df96'
    expect(await docsClient().getMerkleProof(txid)).toBeNull()
    expect(served.map((s) => s.path)).toEqual([
      `/tx/${txid}/proof/tsc`,
      '/block/0000000000000000091216c46973d82db057a6f9911352892b7769ed517681c3/header',
    ])
  })

  it('is answered in the same shape by the simulator', async () => {
    const answer = (await ask('GET', `/tx/${minedTxid}/proof/tsc`)) as { target: string }[]
    expectSameShape(answer, 'tx-proof-tsc.json')
    expect(answer[0]!.target).toBe(sim.state.merkleProof(minedTxid)!.blockHash)
  })
})

describe("the docs' block header frame (WoC Sockets V2)", () => {
  it('is sent by the simulator in the same shape when a block is mined', async () => {
    const ws = new WebSocket(`${sim.socketUrl}?channels=woc:blockHeader`)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const frame = new Promise<unknown>((resolve) =>
      ws.once('message', (data) => resolve(JSON.parse(String(data)))),
    )
    try {
      const height = sim.state.mine()
      const received = (await frame) as { pub: { data: { height: number; hash: string } } }
      expect(received.pub.data).toMatchObject({ height, hash: sim.state.header(height)!.hash })
      expectSameShape(received, 'push-block-header.json')
    } finally {
      ws.close()
      // The mined block leaves the mempool's transactions where the other tests expect them.
      sim.state.reorg(1)
    }
  })
})
