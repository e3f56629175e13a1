import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { fromRoot } from './paths'
import { loadEnv } from './env'

/** One folder holds the shop's data: the SQLite file goes where DATA_DIR says, with the uploads. */
describe('DATA_DIR', () => {
  const base = { NODE_ENV: 'test' } as NodeJS.ProcessEnv

  it('holds the SQLite database when DATABASE_URI is unset', () => {
    const env = loadEnv({ ...base, DATA_DIR: '/srv/shop-data' })
    expect(env.databaseUri).toBe('file:/srv/shop-data/shop.db')
    expect(env.filesDir).toBe('/srv/shop-data/files')
  })

  it('is data/ of the project by default, the database in it', () => {
    const env = loadEnv(base)
    expect(env.databaseUri).toBe(`file:${path.join(fromRoot('data'), 'shop.db')}`)
    expect(env.dataDir).toBe(fromRoot('data'))
  })

  it('leaves a DATABASE_URI that is set where it points', () => {
    const env = loadEnv({ ...base, DATA_DIR: '/srv/a', DATABASE_URI: 'file:/srv/b/other.db' })
    expect(env.databaseUri).toBe('file:/srv/b/other.db')
  })
})
