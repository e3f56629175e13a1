import { execFile } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import { describe, expect, it } from 'vitest'

import { fromRoot } from '../../src/config/paths'
import { TS_NODE_ARGS } from '../support/nodeArgs'

const run = promisify(execFile)

/** A busy port is reported in one line and exit code 1, not a raw stack trace. */
describe('the web process on a busy port', () => {
  it('says so in one line and exits with 1', async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as net.AddressInfo
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-busy-'))
    try {
      const failure = await run(
        process.execPath,
        [...TS_NODE_ARGS, fromRoot('cms/src/server/main.ts')],
        {
          cwd: fromRoot('cms'),
          timeout: 90_000,
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'test',
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            DATABASE_URI: `file:${path.join(dataDir, 'shop.db')}`,
            SEED: 'never',
            LOG_LEVEL: 'warn',
            NEXT_TELEMETRY_DISABLED: '1',
          },
        },
      ).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      )
      expect(failure).not.toBeNull()
      expect(failure!.code).toBe(1)
      expect(failure!.stderr.trim()).toBe(
        `The shop cannot start: port ${port} is in use. Stop the other process or set PORT.`,
      )
    } finally {
      blocker.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
