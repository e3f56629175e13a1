// Module hooks for record-imports.mjs.
import fs from 'node:fs'

let file

export function initialize(data) {
  file = data.file
}

export async function resolve(specifier, context, next) {
  if (file && /^[@a-z]/i.test(specifier) && !/^(node|file|data):/.test(specifier))
    fs.appendFileSync(file, `${specifier}\n`)
  return next(specifier, context)
}
