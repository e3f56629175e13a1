import net from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestShop } from '../support'
import { startTestShop } from '../support'

/**
 * A client sending on a keep-alive connection the server has just closed gets ECONNRESET, and a
 * POST is not retried (CI: the admin's 50 MB upload, sent on a connection idle for about 5 s,
 * failed so once in a few runs). The server keeps idle connections longer than clients do.
 */

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop()
})

afterAll(async () => {
  await shop?.close()
})

/** Sends one request on the socket and resolves with the status line of its answer. */
function ask(socket: net.Socket, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if (!text.includes('\r\n\r\n')) return
      socket.off('data', onData)
      resolve(text.slice(0, text.indexOf('\r\n')))
    }
    socket.on('data', onData)
    socket.once('error', reject)
    socket.once('end', () => reject(new Error('the server closed the connection')))
    socket.write(`HEAD /api/products HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
  })
}

describe('an idle keep-alive connection', () => {
  it('is still open after six seconds (Node closes it after five)', async () => {
    const port = Number(new URL(shop.url).port)
    const socket = net.connect(port, '127.0.0.1')
    try {
      expect(await ask(socket, port)).toBe('HTTP/1.1 200 OK')
      await new Promise((resolve) => setTimeout(resolve, 6000))
      expect(await ask(socket, port)).toBe('HTTP/1.1 200 OK')
    } finally {
      socket.destroy()
    }
  }, 20_000)
})
