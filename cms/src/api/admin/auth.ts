import type { Router } from 'express'
import rateLimit from 'express-rate-limit'
import type { Payload } from 'payload'
import { adminLoginSchema, changePasswordSchema } from '@shop/domain'

import { changeAdminPassword } from '../../operations/admin/changeAdminPassword'
import { DatabaseRateLimitStore } from '../../server/rateLimitStore'
import { toFieldErrors } from '../../operations/admin/fieldErrors'
import { LOGIN_MESSAGES, loginAdmin } from '../../operations/admin/loginAdmin'
import {
  isShopAdmin,
  revokeStaffSession,
  toAdminIdentity,
} from '../../operations/admin/staffSession'
import type { Logger } from '../../server/logger'
import { adminUser, clearSessionCookie, setSessionCookie } from './session'

/**
 * Failed sign-ins per client address, on top of the per-account throttle (Staff hooks).
 * Successful sign-ins do not count, so an owner who types well is never slowed down.
 */
export const LOGIN_RATE_LIMIT = { windowMs: 15 * 60 * 1000, limit: 20 }

export function loginRoute(
  router: Router,
  { payload, logger }: { payload: Payload; logger: Logger },
) {
  const limiter = rateLimit({
    store: new DatabaseRateLimitStore(payload, 'admin-login'),
    ...LOGIN_RATE_LIMIT,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({
        success: false,
        admin: null,
        message: 'Too many sign-in attempts. Try again later.',
      })
    },
  })

  router.post('/login', limiter, async (req, res) => {
    const parsed = adminLoginSchema.safeParse(req.body ?? {})
    if (!parsed.success) {
      const errors = toFieldErrors(parsed.error)
      res
        .status(400)
        .json({ success: false, admin: null, message: errors[0]?.msg ?? 'Bad request.', errors })
      return
    }
    const result = await loginAdmin({ payload, ...parsed.data })
    if (!result.ok) {
      logger.warn({ status: result.status }, 'admin sign-in refused')
      res.status(result.status).json({ success: false, admin: null, message: result.message })
      return
    }
    setSessionCookie({ payload, res, token: result.token })
    logger.info({ adminId: result.admin.id }, 'admin signed in')
    res.json({ success: true, admin: result.admin, message: LOGIN_MESSAGES.success })
  })
}

/** GET /status answers for itself (before the guard): 401 means "not signed in" (spec 6). */
export function statusRoute(router: Router) {
  router.get('/status', (req, res) => {
    const user = req.staffUser
    if (!user) {
      res.status(401).json({ isAuthenticated: false, admin: null })
      return
    }
    if (!isShopAdmin(user)) {
      res
        .status(403)
        .json({ isAuthenticated: false, admin: null, error: 'Only admins can use the admin area.' })
      return
    }
    res.json({ isAuthenticated: true, admin: toAdminIdentity(user) })
  })
}

/** Routes of the signed-in admin (registered after the guard). */
export function accountRoutes(
  router: Router,
  { payload, logger }: { payload: Payload; logger: Logger },
) {
  router.post('/logout', async (req, res) => {
    const user = adminUser(req)
    await revokeStaffSession({ payload, user })
    clearSessionCookie({ payload, res })
    logger.info({ adminId: user.id }, 'admin signed out')
    res.json({ success: true, message: 'Logged out.' })
  })

  router.put('/change-password', async (req, res) => {
    const parsed = changePasswordSchema.safeParse(req.body ?? {})
    if (!parsed.success) {
      res.status(400).json({ errors: toFieldErrors(parsed.error) })
      return
    }
    const user = adminUser(req)
    const result = await changeAdminPassword({ payload, user, ...parsed.data })
    if (!result.ok) {
      res.status(result.status).json({ errors: result.errors })
      return
    }
    logger.info({ adminId: user.id }, 'admin password changed')
    res.json({ success: true, message: 'Password changed successfully!' })
  })
}
