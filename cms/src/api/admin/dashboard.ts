import type { Router } from 'express'
import type { Payload } from 'payload'

import { env } from '../../config/runtime'
import { getAdminHealth } from '../../operations/dashboard/getAdminHealth'
import { getAdminSales } from '../../operations/dashboard/getAdminSales'
import { getAdminSettings } from '../../operations/dashboard/getAdminSettings'
import { getAdminStats } from '../../operations/dashboard/getAdminStats'

/** The dashboard's figures, the sales and the settings in force (admins only, like every route). */
export function dashboardRoutes(router: Router, { payload }: { payload: Payload }) {
  router.get('/stats', async (_req, res) => {
    const [stats, health] = await Promise.all([
      getAdminStats({ payload, walletGapLimit: env.walletGapLimit }),
      getAdminHealth({ payload, env }),
    ])
    res.json({ ...stats, emailDelivery: env.emailDelivery, health })
  })

  router.get('/sales', async (_req, res) => {
    res.json(await getAdminSales({ payload }))
  })

  router.get('/settings', async (_req, res) => {
    res.json(await getAdminSettings({ payload, env }))
  })
}
