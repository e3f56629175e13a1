import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import type { Env } from '../config/env'

/**
 * The Payload secret: from PAYLOAD_SECRET, or in test mode one generated on first run and
 * kept in data/ so sessions survive restarts. Created with O_EXCL so the web process and the
 * worker starting together agree on one secret.
 */
export function resolvePayloadSecret(env: Env): string {
  if (env.payloadSecret) return env.payloadSecret
  if (env.isProduction) {
    // Only reached while Next compiles (the build needs no real secret); start-up refuses earlier.
    return 'build-time-placeholder-secret-never-used-to-sign'
  }
  const file = path.join(env.dataDir, '.payload-secret')
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    fs.mkdirSync(env.dataDir, { recursive: true })
    const secret = crypto.randomBytes(32).toString('hex')
    try {
      fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 })
      return secret
    } catch {
      return fs.readFileSync(file, 'utf8').trim()
    }
  }
}
