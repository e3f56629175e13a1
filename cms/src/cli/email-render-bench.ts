// How long rendering the e-mails holds the payment worker's thread: 400 "payment received"
// messages rendered with React's production build (the npm script sets NODE_ENV), four at a
// time (as the jobs lane sends them, one per pooled SMTP connection), a turn of the event loop
// after each as a send's I/O gives. Prints the render time per message and how late a 1 ms
// timer ran meanwhile (what a push waiting to be judged waits). Run: npm run bench:email-render
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'

import { sampleDownload, sampleOrder } from '../email/preview'
import { loadEmailRenderer, renderOrderEmail } from '../email/renderOrderEmail'

const MESSAGES = 400
const SIDE_BY_SIDE = 4

const shop = {
  name: 'Book Shop',
  publicUrl: 'https://shop.example',
  supportEmail: 'support@shop.example',
  explorerTxUrl: 'https://test.whatsonchain.com/tx/{txid}',
}
const order = sampleOrder('order-paid', 'pdf')
const download = sampleDownload(shop, 'order-paid', 'pdf')
const renderOne = () => renderOrderEmail({ kind: 'order-paid', order, shop, download })

await loadEmailRenderer()
for (let i = 0; i < 50; i++) await renderOne() // warmed up

const delay = monitorEventLoopDelay({ resolution: 1 })
delay.enable()
const started = performance.now()
let next = 0
await Promise.all(
  Array.from({ length: SIDE_BY_SIDE }, async () => {
    while (next < MESSAGES) {
      next += 1
      await renderOne()
      await new Promise((resolve) => setImmediate(resolve))
    }
  }),
)
const elapsed = performance.now() - started
delay.disable()
const ms = (ns: number) => +(ns / 1e6).toFixed(1)
process.stdout.write(
  `${JSON.stringify({
    messages: MESSAGES,
    renderMsPerMessage: +(elapsed / MESSAGES).toFixed(2),
    loopDelayMs: {
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
    },
  })}\n`,
)
