/**
 * The shop's job queues (Payload's Jobs queue): e-mails apart from webhooks, so e-mail turned off
 * on purpose (EMAIL_DELIVERY=off) holds its messages while webhooks still go.
 */
export const JOB_QUEUES = { email: 'email', webhooks: 'webhooks' } as const

export const TASKS = { sendEmail: 'send-email', deliverWebhook: 'deliver-webhook' } as const

/** Retries after the first try (Payload's `retries.attempts`). */
export const EMAIL_RETRIES = 16
export const WEBHOOK_RETRIES = 10
