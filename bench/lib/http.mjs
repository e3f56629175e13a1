// Requests to the shop: JSON in and out, and autocannon's load runs.
import autocannon from 'autocannon'

import { run } from './context.mjs'

/** The JSON body of a 2xx answer; anything else throws with the status and body. */
export const getJson = async (url, init) => {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return res.json()
}

export const postJson = (url, body = {}) =>
  getJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

/** One autocannon run, for the run's load duration unless `opts.duration` says otherwise. */
export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: run.seconds, ...opts }, (err, result) =>
      err ? reject(err) : resolve(result),
    )
  })
}
