import type { Router } from 'express'
import type { Payload } from 'payload'

import { env } from '../../config/runtime'
import { getAdminHealth } from '../../operations/dashboard/getAdminHealth'
import { getAdminSales } from '../../operations/dashboard/getAdminSales'
import { getAdminSettings } from '../../operations/dashboard/getAdminSettings'
import { getAdminStats } from '../../operations/dashboard/getAdminStats'
import { getSettlingBacklog } from '../../operations/dashboard/getSettlingBacklog'

/**
 * The dashboard's figures (with the shop's health and the paid orders still settling), the sales
 * and the settings in force (admins only, like every route).
 */
export function dashboardRoutes(router: Router, { payload }: { payload: Payload }) {
  router.get('/stats', async (_req, res) => {
    const [stats, health, settling] = await Promise.all([
      getAdminStats({ payload, walletGapLimit: env.walletGapLimit }),
      getAdminHealth({ payload, env }),
      getSettlingBacklog({ payload }),
    ])
    res.json({ ...stats, emailDelivery: env.emailDelivery, health, settling })
  })

  router.get('/sales', async (_req, res) => {
    res.json(await getAdminSales({ payload }))
  })

  router.get('/settings', async (_req, res) => {
    res.json(await getAdminSettings({ payload, env }))
  })
}
