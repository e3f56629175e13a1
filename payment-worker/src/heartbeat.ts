import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * The worker's heartbeat for its container's healthcheck: after each successful pass (or check
 * of the lease while standing by) it writes when, and in which role, to DATA_DIR/health/.
 * One file per host, so two worker containers on one volume report each for itself.
 */
export type Heartbeat = { at: string; role: 'active' | 'standby'; pid: number }

export const heartbeatFile = (dataDir: string, host = os.hostname()) =>
  path.join(dataDir, 'health', `worker-${host}.json`)

/** A heartbeat older than this means the worker is stuck (or its database is unreachable). */
export const HEARTBEAT_MAX_AGE_MS = 90_000

export function heartbeatWriter(dataDir: string, everyMs = 5_000) {
  const file = heartbeatFile(dataDir)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  let lastAt = 0
  let lastRole = ''
  return (role: Heartbeat['role']) => {
    const now = Date.now()
    if (now - lastAt < everyMs && role === lastRole) return
    lastAt = now
    lastRole = role
    const beat: Heartbeat = { at: new Date(now).toISOString(), role, pid: process.pid }
    const temporary = `${file}.${process.pid}.tmp`
    fs.writeFileSync(temporary, JSON.stringify(beat))
    fs.renameSync(temporary, file)
  }
}

/** Why the heartbeat shows an unhealthy worker, or null when it is healthy. */
export function heartbeatProblem(dataDir: string, now = Date.now()): string | null {
  let beat: Heartbeat
  try {
    beat = JSON.parse(fs.readFileSync(heartbeatFile(dataDir), 'utf8')) as Heartbeat
  } catch {
    return 'no heartbeat yet'
  }
  const age = now - Date.parse(beat.at)
  if (!(age <= HEARTBEAT_MAX_AGE_MS))
    return `last ${beat.role} pass ${Math.round(age / 1000)} s ago`
  return null
}
