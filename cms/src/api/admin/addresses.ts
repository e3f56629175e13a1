import type { Router } from 'express'
import type { Payload } from 'payload'

import { BAD_PAGE, pageOf } from './paging'

import { env } from '../../config/runtime'
import {
  exportAdminAddressesCsv,
  listAdminAddresses,
} from '../../operations/admin/listAdminAddresses'

/** The watch-only view of the owner's wallet: the addresses given out, and as CSV. */
export function addressRoutes(router: Router, { payload }: { payload: Payload }) {
  const wallet = { xpub: env.bsvXpub, network: env.bsvNetwork }

  router.get('/addresses', async (req, res) => {
    const page = pageOf(req.query.page)
    if (page === null) {
      res.status(400).json(BAD_PAGE)
      return
    }
    res.json(await listAdminAddresses({ payload, wallet, page }))
  })

  router.get('/addresses/export.csv', async (_req, res) => {
    const csv = await exportAdminAddressesCsv({ payload, wallet })
    res
      .type('text/csv; charset=utf-8')
      .attachment(`addresses-${new Date().toISOString().slice(0, 10)}.csv`)
      .send(csv)
  })
}
