// Where a process's time went during one stretch of a run, from a V8 CPU profile
// (`node --cpu-prof`): the samples taken in that window, grouped by package and by function, by
// self time. Async work keeps no caller on the stack, so a window, not a call tree, is the way to
// attribute a loaded route's time.
import fs from 'node:fs'

const packageOf = (url) => {
  if (!url) return '(native)'
  const dependency = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)
  if (dependency) return dependency[1]
  return url.replace(/^.*\/(dist|src)\//, '$1/').replace(/\?.*$/, '')
}

/**
 * Self time of the samples between `fromMs` and `toMs` after the process started (its profile's
 * start), by package and by function (top `limit`), with how busy the process was.
 */
export function summarizeProfile(file, { fromMs, toMs, label }, limit = 15) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'))
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const byPackage = new Map()
  let busy = 0
  const byFunction = new Map()
  let at = 0
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0
    at += us
    if (at < fromMs * 1000 || at > toMs * 1000) return
    const frame = nodes.get(id).callFrame
    if (frame.functionName === '(idle)') return
    busy += us
    const pkg = frame.url ? packageOf(frame.url) : frame.functionName
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us)
    const fn = `${frame.functionName || '(anonymous)'} (${pkg}:${frame.lineNumber + 1})`
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us)
  })
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), share: +(us / busy).toFixed(3) }))
  return {
    label,
    windowMs: Math.round(toMs - fromMs),
    busyMs: Math.round(busy / 1000),
    byPackage: top(byPackage),
    byFunction: top(byFunction),
  }
}

export function printProfile(summary) {
  const line = ({ name, ms, share }) =>
    `  ${String(ms).padStart(7)} ms ${(100 * share).toFixed(1).padStart(5)} %  ${name}`
  console.log(
    [
      '',
      `Profile of the web process during ${summary.label}: busy ${summary.busyMs} ms of ${summary.windowMs} ms`,
      ' by package (self time):',
      ...summary.byPackage.map(line),
      ' by function (self time):',
      ...summary.byFunction.map(line),
    ].join('\n'),
  )
}
