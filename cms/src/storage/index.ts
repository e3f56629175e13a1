import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'

import type * as AwsS3 from '@aws-sdk/client-s3'
import type { Config, Plugin } from 'payload'

import { slugs } from '../collections/slugs'
import type { Env } from '../config/env'

/** The three kinds of upload: covers (public), books (sold), documents (public). */
export type FileArea = 'media' | 'files' | 'documents'

const AREAS: Record<FileArea, { collection: string; prefix: string }> = {
  media: { collection: slugs.media, prefix: 'media' },
  files: { collection: slugs.digitalFiles, prefix: 'files' },
  documents: { collection: slugs.documents, prefix: 'documents' },
}

type StorageSettings = Pick<Env, 'storage' | 'mediaDir' | 'filesDir' | 'documentsDir'>

export type StoredFile = { body: Readable; size: number | undefined }

/** Reads uploads wherever they live, for the shop's own routes (/media, /documents, /download). */
export type FileStore = {
  kind: 'local' | 's3'
  /** The directory of an area on local disk (STORAGE=local only). */
  localDir: (area: FileArea) => string
  exists: (area: FileArea, filename: string) => Promise<boolean>
  /** The file's bytes, or null when there is no such file. */
  open: (area: FileArea, filename: string) => Promise<StoredFile | null>
}

/** Only a plain file name reaches the disk or the bucket: no directory, no dotfile. */
export function isPlainFileName(name: string): boolean {
  return (
    name.length > 0 && name.length <= 255 && name === path.basename(name) && !name.startsWith('.')
  )
}

function s3ClientConfig(storage: Extract<Env['storage'], { kind: 's3' }>) {
  return {
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: storage.forcePathStyle,
    credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
  }
}

/**
 * Payload's storage adapter for STORAGE=s3 (@payloadcms/storage-s3): uploads through any door
 * (/api/admin, /cms, the Local API, the seed) go to the bucket instead of the local directories.
 * Loaded only when STORAGE=s3: the AWS SDK takes a quarter of a second of a start.
 */
export function storagePlugins(settings: StorageSettings): Plugin[] {
  const { storage } = settings
  if (storage.kind !== 's3') return []
  return [
    async (config) => {
      const { s3Storage } = await import('@payloadcms/storage-s3')
      return s3Storage({
        bucket: storage.bucket,
        config: s3ClientConfig(storage),
        collections: Object.fromEntries(
          Object.values(AREAS).map(({ collection, prefix }) => [collection, { prefix }]),
        ),
      })(config)
    },
  ]
}

/**
 * The S3 plugin's admin component, in /cms's import map whichever STORAGE the admin was built
 * with (the plugin itself is registered only when STORAGE=s3).
 */
export const storageAdminDependencies: NonNullable<Config['admin']>['dependencies'] = {
  s3ClientUploadHandler: {
    type: 'component',
    path: '@payloadcms/storage-s3/client#S3ClientUploadHandler',
  },
}

const stores = new WeakMap<object, FileStore>()

export function fileStoreOf(settings: StorageSettings): FileStore {
  const known = stores.get(settings)
  if (known) return known
  const dirs: Record<FileArea, string> = {
    media: settings.mediaDir,
    files: settings.filesDir,
    documents: settings.documentsDir,
  }
  const { storage } = settings
  let store: FileStore
  if (storage.kind === 's3') {
    let sdk: Promise<{ client: AwsS3.S3Client; aws: typeof AwsS3 }> | undefined
    const s3 = () =>
      (sdk ??= import('@aws-sdk/client-s3').then((aws) => ({
        aws,
        client: new aws.S3Client(s3ClientConfig(storage)),
      })))
    const key = (area: FileArea, filename: string) => `${AREAS[area].prefix}/${filename}`
    const missing = (error: unknown) => {
      const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
      return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404
    }
    store = {
      kind: 's3',
      localDir: () => {
        throw new Error('STORAGE=s3 keeps no uploads on local disk')
      },
      exists: async (area, filename) => {
        if (!isPlainFileName(filename)) return false
        const { aws, client } = await s3()
        try {
          await client.send(
            new aws.HeadObjectCommand({ Bucket: storage.bucket, Key: key(area, filename) }),
          )
          return true
        } catch (error) {
          if (missing(error)) return false
          throw error
        }
      },
      open: async (area, filename) => {
        if (!isPlainFileName(filename)) return null
        const { aws, client } = await s3()
        try {
          const object = await client.send(
            new aws.GetObjectCommand({ Bucket: storage.bucket, Key: key(area, filename) }),
          )
          return { body: object.Body as Readable, size: object.ContentLength }
        } catch (error) {
          if (missing(error)) return null
          throw error
        }
      },
    }
  } else {
    const fileOf = (area: FileArea, filename: string) => path.join(dirs[area], filename)
    store = {
      kind: 'local',
      localDir: (area) => dirs[area],
      exists: async (area, filename) =>
        isPlainFileName(filename) &&
        (await fs.promises.stat(fileOf(area, filename)).then(
          (s) => s.isFile(),
          () => false,
        )),
      open: async (area, filename) => {
        if (!isPlainFileName(filename)) return null
        const stat = await fs.promises.stat(fileOf(area, filename)).catch(() => null)
        if (!stat?.isFile()) return null
        return { body: fs.createReadStream(fileOf(area, filename)), size: stat.size }
      },
    }
  }
  stores.set(settings, store)
  return store
}
