import { Router } from 'express'
import type { Payload } from 'payload'

import {
  getLandingHero,
  getLegal,
  getPapersPage,
  listFaqs,
  listPapers,
  listTimeline,
  listTools,
  listWallets,
} from '../operations/content/siteContent'

/** Read endpoints for the information pages: papers, timeline and the site texts. */
export function contentRouter({ payload }: { payload: Payload }): Router {
  const router = Router()
  router.get('/papers', async (_req, res) => {
    res.json(await listPapers({ payload }))
  })
  router.get('/timeline', async (_req, res) => {
    res.json(await listTimeline({ payload }))
  })
  router.get('/content/legal', async (_req, res) => {
    res.json(await getLegal({ payload }))
  })
  router.get('/content/landing-hero', async (_req, res) => {
    res.json(await getLandingHero({ payload }))
  })
  router.get('/content/faqs', async (_req, res) => {
    res.json(await listFaqs({ payload }))
  })
  router.get('/content/tools', async (_req, res) => {
    res.json(await listTools({ payload }))
  })
  router.get('/content/wallets', async (_req, res) => {
    res.json(await listWallets({ payload }))
  })
  router.get('/content/papers-page', async (_req, res) => {
    res.json(await getPapersPage({ payload }))
  })
  return router
}
