import { describe, expect, it } from 'vitest'

import { loadEnv } from './env'

/** Uploads on local disk by default, or in an S3-compatible bucket. */
describe('STORAGE', () => {
  const base = { NODE_ENV: 'test' } as NodeJS.ProcessEnv

  it('is local disk by default, with the S3 settings blank as .env.example has them', () => {
    const env = loadEnv({ ...base, S3_BUCKET: '', S3_ENDPOINT: '', S3_ACCESS_KEY_ID: '' })
    expect(env.storage).toEqual({ kind: 'local' })
  })

  it('refuses s3 without a bucket and its keys, or with an endpoint that is no URL', () => {
    expect(() => loadEnv({ ...base, STORAGE: 's3', S3_BUCKET: 'books' })).toThrow(
      /STORAGE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    )
    expect(() => loadEnv({ ...base, STORAGE: 's3', S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT must be an http\(s\) URL/,
    )
    expect(() => loadEnv({ ...base, STORAGE: 'ftp' })).toThrow(/STORAGE/)
  })

  it('reads a complete S3 setting', () => {
    const env = loadEnv({
      ...base,
      STORAGE: 's3',
      S3_BUCKET: 'books',
      S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com',
      S3_REGION: 'auto',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    })
    expect(env.storage).toEqual({
      kind: 's3',
      bucket: 'books',
      endpoint: 'https://account.r2.cloudflarestorage.com',
      region: 'auto',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    })
  })
})
