import { withPayload } from '@payloadcms/next/withPayload'

/** Next only serves Payload's admin and REST under /cms; express mounts it (src/server). */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The shop's own code is TypeScript checked by `npm run typecheck`; the build skips it.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ['@libsql/client', 'libsql', 'sharp', 'pino', 'pino-http'],
  experimental: { cpus: 2 },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
