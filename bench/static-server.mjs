// The benchmark's ceiling: plain express serving the catalogue's JSON bytes as static files.
// Usage: node bench/static-server.mjs <dir> <port>
import express from 'express'

const [dir, port] = process.argv.slice(2)
const app = express()
app.disable('x-powered-by')
app.use(express.static(dir, { index: false }))
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'))
