import fs from 'node:fs'

import { describe, expect, it } from 'vitest'

import { SETTING_NAMES } from './env'
import { fromRoot } from './paths'

describe('.env.example', () => {
  it('documents every setting of the schema, and no setting the schema does not know', () => {
    const example = fs.readFileSync(fromRoot('.env.example'), 'utf8')
    const documented = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!)
    // Read by the compose files (the proxy, PostgreSQL, MongoDB), not by the shop's processes.
    const composeOnly = [
      'SHOP_DOMAIN',
      'ACME_EMAIL',
      'POSTGRES_USER',
      'POSTGRES_PASSWORD',
      'POSTGRES_DB',
      'MONGO_ROOT_USER',
      'MONGO_ROOT_PASSWORD',
      'MONGO_APP_USER',
      'MONGO_APP_PASSWORD',
      'MONGO_REPLICA_KEY',
    ]
    expect(SETTING_NAMES.filter((name) => !documented.includes(name))).toEqual([])
    expect(
      documented.filter((name) => !SETTING_NAMES.includes(name) && !composeOnly.includes(name)),
    ).toEqual([])
  })
})
