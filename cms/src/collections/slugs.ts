/** Every collection and global slug, in one place. */
export const slugs = {
  staff: 'staff',
  products: 'products',
  orders: 'orders',
  downloadTokens: 'download-tokens',
  media: 'media',
  digitalFiles: 'digital-files',
  documents: 'documents',
  papers: 'papers',
  timeline: 'timeline',
  counters: 'counters',
  payments: 'payments',
  emailOutbox: 'email-outbox',
  webhookDeliveries: 'webhook-deliveries',
  leases: 'leases',
  rateLimits: 'rate-limits',
  chainHealth: 'chain-health',
  arcCallbacks: 'arc-callbacks',
} as const

export const globalSlugs = {
  legal: 'legal',
  faqs: 'landing-faqs',
  proofsTools: 'proofs-tools',
  wallets: 'recommended-wallets',
  papersPage: 'papers-page',
  landingHero: 'landing-hero',
} as const
