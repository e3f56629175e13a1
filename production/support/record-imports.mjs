// Loaded with `node --import`: records each package the process imports (its bare specifier, one
// per line) in the file RECORD_IMPORTS_FILE names. The hooks run in Node's loader thread.
import { register } from 'node:module'

register('./record-imports-hooks.mjs', import.meta.url, {
  data: { file: process.env.RECORD_IMPORTS_FILE },
})
