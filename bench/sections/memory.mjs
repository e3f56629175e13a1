// Memory: resident memory (VmRSS) of the web process and the worker at rest after start (test
// mode and production, measured by the start-up section), the peak during each section, and at
// the end of the run.
import { run, waitUntil } from '../lib/context.mjs'
import { rssMB } from '../lib/proc.mjs'
import { shop } from '../lib/shop.mjs'

/** Memory once both processes have settled (neither grew over 2 s). */
export async function memoryAtRest() {
  let last = { web: 0, worker: 0 }
  return waitUntil(
    async () => {
      const now = { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) }
      const settled = now.worker > 50 && now.web <= last.web && now.worker <= last.worker
      last = now
      return settled ? now : null
    },
    { everyMs: 2000, timeoutMs: 60_000, what: 'memory to settle' },
  )
}

/** Samples the RSS of the web process and the worker while `fn` runs; returns fn's value. */
export async function withMemory(label, fn) {
  const peak = { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) }
  const timer = setInterval(() => {
    peak.web = Math.max(peak.web, rssMB(shop.pids.web))
    peak.worker = Math.max(peak.worker, rssMB(shop.pids.worker))
  }, 100)
  try {
    return await fn()
  } finally {
    clearInterval(timer)
    run.results.memory ??= {}
    run.results.memory[label] = peak
  }
}

/** The memory of both processes once every section has run. */
export function memoryAtEnd() {
  run.results.memory.end = { web: rssMB(shop.pids.web), worker: rssMB(shop.pids.worker) }
}
