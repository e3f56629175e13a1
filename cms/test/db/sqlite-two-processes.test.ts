import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

import { fromRoot } from '../../src/config/paths'
import { TS_NODE_ARGS } from '../support/nodeArgs'

const run = promisify(execFile)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-two-writers-'))
const env = {
  ...process.env,
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  DATABASE_URI: `file:${path.join(dataDir, 'shop.db')}`,
  PAYLOAD_SECRET: 'test-secret-test-secret-test-secret-0123',
  LOG_LEVEL: 'fatal',
}

const writer = (tag: string, count: number, push = false) =>
  run(
    process.execPath,
    [...TS_NODE_ARGS, fromRoot('cms/test/support/createMany.ts'), String(count), tag],
    {
      cwd: fromRoot('cms'),
      env: { ...env, DB_PUSH: String(push) },
      timeout: 240_000,
      maxBuffer: 64 * 1024 * 1024,
    },
  )

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('SQLite shared by two processes', () => {
  it('keeps every write of two processes writing the same file (2 x 300 creates)', async () => {
    // Create the schema once first, as the web process does before the worker starts.
    await writer('schema', 1, true)
    const [a, b] = await Promise.all([writer('a', 300), writer('b', 300)])
    expect(JSON.parse(a.stdout.trim().split('\n').pop()!)).toEqual({
      tag: 'a',
      created: 300,
      failures: 0,
    })
    expect(JSON.parse(b.stdout.trim().split('\n').pop()!)).toEqual({
      tag: 'b',
      created: 300,
      failures: 0,
    })

    const { stdout } = await run(
      process.execPath,
      [...TS_NODE_ARGS, fromRoot('cms/test/support/countTimeline.ts')],
      { cwd: fromRoot('cms'), env: { ...env, DB_PUSH: 'false' }, timeout: 60_000 },
    )
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ total: 600, unique: 600 })
  }, 300_000)
})
