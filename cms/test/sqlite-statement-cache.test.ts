import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { createClient } from '@libsql/client'
import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'

import { cachePreparedStatements } from '../src/db/sqlite-safety'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stmt-cache-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('the prepared-statement cache (libsql never frees a statement)', () => {
  it('prepares each SQL text once per connection and still answers every query with its own arguments', async () => {
    cachePreparedStatements()
    const file = path.join(dir, 'cache.db')
    const db = new Database(file)
    expect(db.prepare('SELECT ? AS v')).toBe(db.prepare('SELECT ? AS v'))
    expect(db.prepare('SELECT ? AS v')).not.toBe(db.prepare('SELECT ? AS w'))
    const other = new Database(file)
    expect(other.prepare('SELECT ? AS v')).not.toBe(db.prepare('SELECT ? AS v'))

    // Through the client Payload uses: writes, reads and statements without rows, repeated.
    const client = createClient({ url: `file:${file}` })
    await client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)')
    for (let i = 1; i <= 50; i += 1)
      await client.execute({ sql: 'INSERT INTO t (id, name) VALUES (?, ?)', args: [i, `n${i}`] })
    for (const i of [7, 42, 7, 1]) {
      const found = await client.execute({ sql: 'SELECT name FROM t WHERE id = ?', args: [i] })
      expect(found.rows.map((r) => r.name)).toEqual([`n${i}`])
    }
    const some = await client.execute({
      sql: 'SELECT id FROM t WHERE id <= ? ORDER BY id',
      args: [3],
    })
    expect(some.rows.map((r) => Number(r.id))).toEqual([1, 2, 3])
    const changed = await client.execute({
      sql: 'UPDATE t SET name = ? WHERE id > ?',
      args: ['x', 45],
    })
    expect(changed.rowsAffected).toBe(5)
    client.close()
    db.close()
    other.close()
  })
})
