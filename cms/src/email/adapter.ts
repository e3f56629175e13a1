import { nodemailerAdapter } from '@payloadcms/email-nodemailer'
import nodemailer from 'nodemailer'
import type { EmailAdapter } from 'payload'

import type { Env } from '../config/env'

/**
 * Mail goes through SMTP when SMTP_HOST is set. Without it (test mode) messages are rendered
 * but not sent: no network call, and no ethereal test account (the adapter's default).
 */
export function emailAdapter(env: Env): Promise<EmailAdapter> | undefined {
  if (!env.smtp.host) {
    return nodemailerAdapter({
      defaultFromAddress: fromAddress(env),
      defaultFromName: fromName(env),
      skipVerify: true,
      transport: nodemailer.createTransport({ jsonTransport: true }),
    })
  }
  return nodemailerAdapter({
    defaultFromAddress: fromAddress(env),
    defaultFromName: fromName(env),
    skipVerify: true,
    transportOptions: {
      host: env.smtp.host,
      port: env.smtp.port,
      secure: env.smtp.port === 465,
      auth: env.smtp.user ? { user: env.smtp.user, pass: env.smtp.pass } : undefined,
    },
  })
}

function fromAddress(env: Env): string {
  return /<([^>]+)>/.exec(env.smtp.from)?.[1] ?? env.smtp.from
}

function fromName(env: Env): string {
  return env.smtp.from.replace(/<[^>]+>/, '').trim() || 'Book Shop'
}
