import type { Payload } from 'payload'

import { slugs } from '@shop/cms/engine'
import type { AdminClient } from '@shop/cms/testing'
import { adminClient, createStaff, signedIn } from '@shop/cms/testing'
import type { PaymentsHarness } from '@shop/payment-worker/testing'
import { startPaymentsHarness } from '@shop/payment-worker/testing'

export const ADMIN = { email: 'owner@example.com', password: 'owner-password-1' }
export const EDITOR = { email: 'editor@example.com', password: 'editor-password-1' }

export type HardeningShop = PaymentsHarness & {
  admin: AdminClient
  /** An editor with a real Payload session (the admin area refuses to sign editors in). */
  editor: AdminClient
  signInAdmin: () => Promise<AdminClient>
}

/**
 * The shop (real express app, Payload on a fresh SQLite file), the chain simulator and, when
 * asked, the payment worker in this process; plus an admin and an editor with sessions.
 */
export async function startHardeningShop({
  env = {},
  worker = false,
}: { env?: Record<string, string>; worker?: boolean } = {}): Promise<HardeningShop> {
  const harness = await startPaymentsHarness({ env, worker })
  const { payload, url } = harness.shop
  await createStaff({ payload, ...ADMIN, role: 'admin' })
  await createStaff({ payload, ...EDITOR, role: 'editor' })
  const editor = adminClient(url)
  editor.cookie = `payload-token=${await editorToken(payload)}`
  const signInAdmin = () => signedIn(url, ADMIN.email, ADMIN.password)
  return { ...harness, admin: await signInAdmin(), editor, signInAdmin }
}

async function editorToken(payload: Payload): Promise<string> {
  const { token } = await payload.login({ collection: slugs.staff, data: EDITOR })
  if (!token) throw new Error('The editor got no session token.')
  return token
}
