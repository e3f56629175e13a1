import { OWNER_ORDER_ACTION_NAMES } from '@shop/domain'
import type { Router } from 'express'
import type { Payload } from 'payload'

import { BAD_PAGE, pageOf } from './paging'

import { getAdminOrder } from '../../operations/admin/getAdminOrder'
import { exportAdminOrdersCsv, listAdminOrders } from '../../operations/admin/listAdminOrders'
import { parseOrderFilters } from '../../operations/admin/orderFilters'
import { correctTrackingNumber, markOrderShipped } from '../../operations/admin/markOrderShipped'
import { requestOrderRecheck, takeOrderAction } from '../../operations/admin/takeOrderAction'
import { reissueDownloadLink } from '../../operations/admin/reissueDownloadLink'
import { env } from '../../config/runtime'
import type { Logger } from '../../server/logger'
import { adminUser } from './session'

export function orderRoutes(
  router: Router,
  { payload, logger }: { payload: Payload; logger: Logger },
) {
  router.get('/orders', async (req, res) => {
    const page = pageOf(req.query.page)
    if (page === null) {
      res.status(400).json(BAD_PAGE)
      return
    }
    const parsed = parseOrderFilters(req.query)
    if ('error' in parsed) {
      res.status(400).json({ error: parsed.error })
      return
    }
    res.json(await listAdminOrders({ payload, page, filters: parsed.filters }))
  })

  // Every order the same filters select, for a spreadsheet (before /orders/:id).
  router.get('/orders/export.csv', async (req, res) => {
    const parsed = parseOrderFilters(req.query)
    if ('error' in parsed) {
      res.status(400).json({ error: parsed.error })
      return
    }
    const csv = await exportAdminOrdersCsv({ payload, filters: parsed.filters })
    res
      .type('text/csv; charset=utf-8')
      .attachment(`orders-${new Date().toISOString().slice(0, 10)}.csv`)
      .send(csv)
  })

  router.get('/orders/:id', async (req, res) => {
    const order = await getAdminOrder({ payload, id: req.params.id })
    if (!order) {
      res.status(404).json({ error: 'Order not found.' })
      return
    }
    res.json(order)
  })

  router.post('/orders/:id/ship', async (req, res) => {
    const body = (req.body ?? {}) as { trackingNumber?: unknown }
    const trackingNumber = typeof body.trackingNumber === 'string' ? body.trackingNumber : ''
    const result = await markOrderShipped({ payload, id: req.params.id, trackingNumber })
    if (!result.ok) {
      res.status(result.status).json({ error: result.error })
      return
    }
    logger.info({ orderId: result.order.id }, 'order marked as shipped')
    res.json(result.order)
  })

  router.post('/orders/:id/tracking', async (req, res) => {
    const body = (req.body ?? {}) as { trackingNumber?: unknown; note?: unknown }
    const result = await correctTrackingNumber({
      payload,
      id: req.params.id,
      trackingNumber: typeof body.trackingNumber === 'string' ? body.trackingNumber : '',
      note: typeof body.note === 'string' ? body.note : '',
      by: adminUser(req).email,
    })
    if (!result.ok) {
      res.status(result.status).json({ error: result.error })
      return
    }
    logger.info({ orderId: result.order.id }, 'tracking number corrected')
    res.json(result.order)
  })

  // The owner's settling actions, each recorded in the order's history.
  for (const action of OWNER_ORDER_ACTION_NAMES) {
    router.post(`/orders/:id/${action}`, async (req, res) => {
      const body = (req.body ?? {}) as { note?: unknown; txid?: unknown }
      const result = await takeOrderAction({
        payload,
        id: req.params.id,
        action,
        note: typeof body.note === 'string' ? body.note : '',
        txid: typeof body.txid === 'string' ? body.txid : undefined,
        by: adminUser(req).email,
      })
      if (!result.ok) {
        res.status(result.status).json({ error: result.error })
        return
      }
      logger.info({ orderId: result.order.id, action, status: result.order.status }, 'order action')
      res.json(result.order)
    })
  }

  // A fresh download link for the buyer of a paid PDF order, e-mailed, recorded in the history.
  router.post('/orders/:id/download-link', async (req, res) => {
    const result = await reissueDownloadLink({
      payload,
      id: req.params.id,
      by: adminUser(req).email,
      settings: env,
    })
    if (!result.ok) {
      res.status(result.status).json({ error: result.error })
      return
    }
    res.json(result.order)
  })

  router.post('/orders/:id/recheck', async (req, res) => {
    const result = await requestOrderRecheck({
      payload,
      id: req.params.id,
      by: adminUser(req).email,
    })
    if (!result.ok) {
      res.status(result.status).json({ error: result.error })
      return
    }
    res.json(result.order)
  })
}
