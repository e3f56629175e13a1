// Runs one of the shop's commands (entries.mjs) the way this install can: the compiled
// dist/<name>.mjs in production (the image, `npm run build` done), the TypeScript source through
// run-ts.mjs in development. `npm run create-admin` goes through here.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { ENTRIES } from './entries.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const [name, ...args] = process.argv.slice(2)
if (!name || !(name in ENTRIES)) {
  console.error(`usage: node scripts/run-entry.mjs <${Object.keys(ENTRIES).join('|')}> [args...]`)
  process.exit(2)
}
const compiled = path.join(root, 'dist', `${name}.mjs`)
const source = path.join(root, ENTRIES[name])
const useCompiled = process.env.NODE_ENV === 'production' || !fs.existsSync(source)
if (useCompiled && !fs.existsSync(compiled)) {
  console.error(`dist/${name}.mjs is missing: run \`npm run build\` first.`)
  process.exit(1)
}
const child = spawn(
  process.execPath,
  [
    '--conditions=production',
    ...(useCompiled ? [compiled] : [path.join(root, 'scripts/run-ts.mjs'), source]),
    ...args,
  ],
  { stdio: 'inherit' },
)
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
