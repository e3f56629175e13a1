import type { RequestHandler } from 'express'

import type { Logger } from './logger'

/**
 * Next, which serves Payload's admin and REST under /cms, loaded by the first request that
 * needs it instead of at start: the shop answers buyers a few seconds sooner after every start
 * and a web process nobody opened /cms on keeps Next's memory to itself (loaded at start, Next
 * is most of a 5.3 s start and of 201 MB at rest). The first /cms request waits for it; a load
 * that fails is tried again by the next request.
 */
export function lazyNext({ dev, dir, logger }: { dev: boolean; dir: string; logger: Logger }): {
  handler: RequestHandler
  close: () => Promise<void>
} {
  type Loaded = { handle: RequestHandler; close: () => Promise<void> }
  let loading: Promise<Loaded> | undefined
  const load = () =>
    (loading ??= (async () => {
      const started = Date.now()
      const { default: next } = await import('next')
      const app = next({ dev, dir, quiet: !dev })
      await app.prepare()
      logger.info({ ms: Date.now() - started }, 'CMS (Next) loaded')
      const handle = app.getRequestHandler()
      const served: RequestHandler = (req, res) => void handle(req, res)
      return { handle: served, close: () => app.close() }
    })().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
  return {
    handler: (req, res, next) => {
      load().then(({ handle }) => handle(req, res, next), next)
    },
    close: async () => {
      if (loading) await (await loading.catch(() => null))?.close()
    },
  }
}
