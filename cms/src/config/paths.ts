import fs from 'node:fs'
import path from 'node:path'

/**
 * The repository's root: the nearest folder above the working directory whose package.json
 * declares workspaces. Relative settings (data/, uploads) are resolved against it, so the
 * shop finds the same files whether started from the root, from cms/ or by Next's build.
 */
export function findRepoRoot(start: string = process.cwd()): string {
  let dir = path.resolve(start)
  for (;;) {
    const manifest = path.join(dir, 'package.json')
    if (fs.existsSync(manifest)) {
      try {
        const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { workspaces?: unknown }
        if (json.workspaces) return dir
      } catch {
        // an unreadable package.json is not the root; keep looking
      }
    }
    const parent = path.dirname(dir)
    if (parent === dir) return path.resolve(start)
    dir = parent
  }
}

export const repoRoot = findRepoRoot()

export function fromRoot(...segments: string[]): string {
  return path.resolve(repoRoot, ...segments)
}
