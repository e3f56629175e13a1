import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import type { Env } from '../config/env'

export type DemoAdmin = { email: string; password: string; created: boolean }

/**
 * Test mode's demo admin. Its password is DEMO_ADMIN_PASSWORD, or one generated on first run
 * and kept in data/ so the start-up log can show it every time. Never used in production.
 */
export async function ensureDemoAdmin({
  payload,
  env,
}: {
  payload: Payload
  env: Env
}): Promise<DemoAdmin> {
  if (env.isProduction) throw new Error('The demo admin exists in test mode only.')
  const { email } = env.demoAdmin
  const password = env.demoAdmin.password ?? readOrCreatePassword(env)
  const existing = await payload.find({
    collection: slugs.staff,
    where: { email: { equals: email } },
    limit: 1,
  })
  if (existing.docs.length > 0) return { email, password, created: false }
  try {
    await payload.create({
      collection: slugs.staff,
      data: { email, password, name: 'Demo Admin', role: 'admin' },
    })
    return { email, password, created: true }
  } catch (error) {
    // Another process (the worker, a second web process) created it first.
    const again = await payload.find({
      collection: slugs.staff,
      where: { email: { equals: email } },
      limit: 1,
    })
    if (again.docs.length > 0) return { email, password, created: false }
    throw error
  }
}

function readOrCreatePassword(env: Env): string {
  const file = path.join(env.dataDir, '.demo-admin-password')
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    fs.mkdirSync(env.dataDir, { recursive: true })
    const password = crypto.randomBytes(9).toString('base64url')
    try {
      fs.writeFileSync(file, password, { flag: 'wx', mode: 0o600 })
      return password
    } catch {
      return fs.readFileSync(file, 'utf8').trim()
    }
  }
}
