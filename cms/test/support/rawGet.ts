import http from 'node:http'

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

/** A GET whose body is kept as it travelled (no decoding), with the answer's headers. */
export const rawGet = (url: string, headers: Record<string, string> = {}) =>
  new Promise<RawAnswer>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        )
      })
      .on('error', reject)
  })
