// Loaded with `node --import ./scripts/preload.mjs --import tsx ...` before tsx's hooks: the
// large dependency graphs (Payload, Lexical, Next, the database drivers) load through Node's own
// loader. On Node 20, loading them through tsx's off-thread hooks deadlocked about one start in
// four on a loaded machine (the process hangs in an import, never printing a line).
const keepAlive = setInterval(() => undefined, 1 << 30)
await import('payload')
await import('@payloadcms/db-sqlite')
await import('@payloadcms/db-mongodb')
await import('@payloadcms/email-nodemailer')
await import('@payloadcms/richtext-lexical')
await import('@payloadcms/richtext-lexical/html')
await import('sharp')
await import('zod')
await import('pino')
await import('express')
clearInterval(keepAlive)
