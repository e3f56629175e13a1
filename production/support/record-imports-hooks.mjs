// Module hooks for record-imports.mjs: every bare specifier (a package from node_modules) and
// every module of the production bundle (dist/) the process loads, one per line.
import fs from 'node:fs'

let file

export function initialize(data) {
  file = data.file
}

export async function resolve(specifier, context, next) {
  if (file && /^[@a-z]/i.test(specifier) && !/^(node|file|data):/.test(specifier))
    fs.appendFileSync(file, `${specifier}\n`)
  const resolved = await next(specifier, context)
  if (file && resolved.url.startsWith('file:') && resolved.url.includes('/dist/'))
    fs.appendFileSync(file, `${resolved.url}\n`)
  return resolved
}
