// What Linux's /proc says about a process: its children, its resident memory, its CPU time.
import fs from 'node:fs'

/** The processes whose parent is `pid`, with their command lines. */
export function childrenOf(pid) {
  const out = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid !== pid) continue
      out.push({
        pid: Number(entry),
        cmd: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '),
      })
    } catch {
      // gone
    }
  }
  return out
}

/** Resident memory (VmRSS) in MB, 0 once the process is gone. */
export const rssMB = (pid) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Math.round(Number(kb) / 1024) : 0
  } catch {
    return 0
  }
}

/** CPU seconds a process has used so far (user and system). */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}
