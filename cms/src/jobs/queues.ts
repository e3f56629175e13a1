/**
 * The shop's job queues (Payload's Jobs queue): e-mails apart from webhooks, so e-mail turned off
 * on purpose (EMAIL_DELIVERY=off) holds its messages while webhooks still go; deliveries of paid
 * orders apart from both, so the worker can run them the moment a judgement makes an order PAID.
 */
export const JOB_QUEUES = {
  fulfilment: 'fulfilment',
  email: 'email',
  webhooks: 'webhooks',
} as const

export const TASKS = {
  fulfilOrder: 'fulfil-order',
  sendEmail: 'send-email',
  deliverWebhook: 'deliver-webhook',
  resendDownloadLinks: 'resend-download-links',
} as const

/** Retries after the first try (Payload's `retries.attempts`). */
export const EMAIL_RETRIES = 16
export const WEBHOOK_RETRIES = 10
export const FULFILMENT_RETRIES = 10
export const LINK_RESEND_RETRIES = 5

/**
 * The wait before a failed delivery's first retry, doubled for each further one: 10 s, then up
 * to about 85 minutes before the last (about 3 hours in all), as the worker retried a failed
 * delivery before it was a job.
 */
export const FULFILMENT_RETRY_BASE_MS = 10_000
