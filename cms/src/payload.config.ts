import { lexicalEditor } from '@payloadcms/richtext-lexical'
import { buildConfig } from 'payload'
import sharp from 'sharp'

import { resolvePayloadSecret } from './bootstrap/secret'
import { ArcCallbacks } from './collections/ArcCallbacks'
import { ChainHealth } from './collections/ChainHealth'
import { Counters } from './collections/Counters'
import { Leases } from './collections/Leases'
import { RateLimits } from './collections/RateLimits'
import { DigitalFiles } from './collections/DigitalFiles'
import { Documents } from './collections/Documents'
import { EmailOutbox } from './collections/EmailOutbox'
import { WebhookDeliveries } from './collections/WebhookDeliveries'
import { DownloadTokens } from './collections/DownloadTokens'
import { Media } from './collections/Media'
import { Orders } from './collections/Orders'
import { Papers } from './collections/Papers'
import { Payments } from './collections/Payments'
import { Products } from './collections/Products'
import { slugs } from './collections/slugs'
import { Staff } from './collections/Staff'
import { Timeline } from './collections/Timeline'
import { fromRoot } from './config/paths'
import { env } from './config/runtime'
import { databaseAdapter } from './db/adapter'
import { emailAdapter } from './email/adapter'
import { restrictDocumentLocks } from './collections/hooks/documentLocks'
import { globals } from './globals'
import { shopJobs } from './jobs'
import { storageAdminDependencies, storagePlugins } from './storage'

/**
 * The one Payload config, used by the web process, the payment worker, Next's build and the
 * CLI. Payload's admin (for editors) and REST live under /cms so /api stays the spec's.
 */
export default buildConfig({
  serverURL: env.publicUrl,
  secret: resolvePayloadSecret(env),
  routes: {
    admin: '/cms',
    api: '/cms/api',
    graphQL: '/cms/graphql',
    graphQLPlayground: '/cms/graphql-playground',
  },
  admin: {
    user: slugs.staff,
    // No Gravatar: the CMS loads nothing from outside the shop (and tells Gravatar nothing).
    avatar: 'default',
    meta: { titleSuffix: ' · Book Shop CMS' },
    importMap: { baseDir: fromRoot('cms/src') },
    components: { afterNavLinks: ['/components/ShopAdminLink#ShopAdminLink'] },
    dependencies: storageAdminDependencies,
  },
  collections: [
    Products,
    Orders,
    Payments,
    DownloadTokens,
    Counters,
    Leases,
    RateLimits,
    ChainHealth,
    ArcCallbacks,
    EmailOutbox,
    WebhookDeliveries,
    Media,
    DigitalFiles,
    Documents,
    Papers,
    Timeline,
    Staff,
  ],
  globals,
  jobs: shopJobs(env),
  plugins: storagePlugins(env),
  editor: lexicalEditor(),
  // Only the engine in use is loaded (the other took a third of a second of every start).
  db: await databaseAdapter(env),
  email: emailAdapter(env),
  sharp,
  graphQL: { disable: true },
  telemetry: false,
  // Structured JSON logs at the shop's level, like the web process and the worker.
  logger: { options: { name: 'payload', level: env.logLevel } },
  typescript: { outputFile: fromRoot('cms/src/payload-types.ts'), autoGenerate: false },
  upload: { limits: { fileSize: env.maxUploadMb * 1024 * 1024 } },
}).then(restrictDocumentLocks)
