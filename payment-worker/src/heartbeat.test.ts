import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterEach, describe, expect, it } from 'vitest'

import { HEARTBEAT_MAX_AGE_MS, heartbeatFile, heartbeatProblem, heartbeatWriter } from './heartbeat'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heartbeat-'))
  dirs.push(dir)
  return dir
}

describe('the worker heartbeat', () => {
  it('is unhealthy before the first pass, healthy after one, unhealthy when it gets old', () => {
    const dir = dataDir()
    expect(heartbeatProblem(dir)).toBe('no heartbeat yet')
    heartbeatWriter(dir)('standby')
    expect(heartbeatProblem(dir)).toBeNull()
    expect(JSON.parse(fs.readFileSync(heartbeatFile(dir), 'utf8'))).toMatchObject({
      role: 'standby',
      pid: process.pid,
    })
    expect(heartbeatProblem(dir, Date.now() + HEARTBEAT_MAX_AGE_MS + 1_000)).toMatch(
      /^last standby pass \d+ s ago$/,
    )
  })

  it('writes at most every few seconds unless the role changes', () => {
    const dir = dataDir()
    const beat = heartbeatWriter(dir, 60_000)
    beat('standby')
    const first = fs.readFileSync(heartbeatFile(dir), 'utf8')
    beat('standby')
    expect(fs.readFileSync(heartbeatFile(dir), 'utf8')).toBe(first)
    beat('active')
    expect(JSON.parse(fs.readFileSync(heartbeatFile(dir), 'utf8')).role).toBe('active')
  })
})
