import { nodemailerAdapter } from '@payloadcms/email-nodemailer'
import nodemailer from 'nodemailer'
import type { EmailAdapter } from 'payload'

import type { Env } from '../config/env'

/**
 * SMTP connections kept open and reused, at most this many at once (nodemailer's pool): a rush's
 * e-mails go this many side by side (`sendTogether`), and each no longer opens a connection of
 * its own (a connection, its greeting and EHLO, then QUIT, per message: TLS besides with a real
 * provider), which made 80 messages to a loopback server take 2.6 times as long.
 */
export const SMTP_CONNECTIONS = 8

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
    transport: nodemailer.createTransport({
      host: env.smtp.host,
      port: env.smtp.port,
      secure: env.smtp.port === 465,
      auth: env.smtp.user ? { user: env.smtp.user, pass: env.smtp.pass } : undefined,
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
    }),
  })
}

function fromAddress(env: Env): string {
  return /<([^>]+)>/.exec(env.smtp.from)?.[1] ?? env.smtp.from
}

function fromName(env: Env): string {
  return env.smtp.from.replace(/<[^>]+>/, '').trim() || 'Book Shop'
}
