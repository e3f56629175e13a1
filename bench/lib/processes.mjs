// Everything the bench starts, and its stopping on success, failure or Ctrl-C: each process runs
// in a process group of its own, so stopping the group stops whatever it started too.
import { spawn } from 'node:child_process'
import fs from 'node:fs'

import { root, sleep } from './context.mjs'

const processes = []
const closers = []

/** Starts a process in a group of its own, keeping the last 200 KB of its output. */
export function launch(name, command, args, env) {
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const keep = (chunk) => {
    output = (output + chunk).slice(-200_000)
  }
  if (process.env.BENCH_LOG_DIR) {
    fs.mkdirSync(process.env.BENCH_LOG_DIR, { recursive: true })
    child.stdout.pipe(
      fs.createWriteStream(
        `${process.env.BENCH_LOG_DIR}/${name.replace(/\W+/g, '-')}-${child.pid}.log`,
      ),
    )
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const proc = {
    name,
    child,
    output: () => output,
    exited: new Promise((resolve) => child.once('exit', resolve)),
  }
  processes.push(proc)
  return proc
}

/** Something the bench runs in its own process (a server), closed when the bench stops. */
export const closeAtEnd = (...close) => closers.push(...close)

const signalGroup = (child, signal) => {
  try {
    process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

export async function stop(proc) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return
  signalGroup(proc.child, 'SIGTERM')
  const stopped = await Promise.race([proc.exited.then(() => true), sleep(15_000)])
  if (!stopped) signalGroup(proc.child, 'SIGKILL')
  // Whatever the group left behind.
  signalGroup(proc.child, 'SIGKILL')
}

export async function stopEverything() {
  for (const proc of processes.toReversed()) await stop(proc)
  for (const close of closers.splice(0)) await close().catch(() => undefined)
}

/** On Ctrl-C or SIGTERM everything is stopped; on any exit, no process of ours outlives the bench. */
export function stopEverythingOnExit() {
  let interrupted = false
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (interrupted) return
      interrupted = true
      console.error(`\n[bench] ${signal}: stopping everything it started`)
      stopEverything().finally(() => process.exit(130))
    })
  }
  // Last resort (an exception thrown past main).
  process.on('exit', () => {
    for (const proc of processes) signalGroup(proc.child, 'SIGKILL')
  })
}
