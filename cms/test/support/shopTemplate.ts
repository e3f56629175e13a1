import fs from 'node:fs'
import path from 'node:path'
import Database from 'libsql'

/**
 * A run's templates: a shop's database and upload folders, right after Payload pushed its schema
 * (`empty`) and after the seed (`seeded`), for later test shops to copy instead.
 */
export type TemplateKind = 'empty' | 'seeded'

const UPLOAD_FOLDERS = ['media', 'files', 'documents']

const ready = (template: string, kind: TemplateKind) => path.join(template, kind)

/** Copies the run's template of this kind into `dataDir`; false when none is saved yet. */
export function copyShopTemplate(template: string, kind: TemplateKind, dataDir: string): boolean {
  if (!fs.existsSync(ready(template, kind))) return false
  fs.cpSync(ready(template, kind), dataDir, { recursive: true })
  return true
}

/**
 * Saves the shop in `dataDir` as the run's template of this kind, once: the first file to get
 * here claims it, the others go on (a file that finds no template yet makes its own shop rather
 * than wait). `VACUUM INTO`, on a connection of its own (the shop's may be inside a
 * transaction), writes a consistent copy of the database while the shop has it open.
 */
export function saveShopTemplate(template: string, kind: TemplateKind, dataDir: string): void {
  try {
    fs.mkdirSync(path.join(template, `${kind}.claimed`))
  } catch {
    return
  }
  const building = path.join(template, `${kind}.building`)
  fs.mkdirSync(building)
  const db = new Database(path.join(dataDir, 'shop.db'))
  try {
    db.prepare('VACUUM INTO ?').run([path.join(building, 'shop.db')])
  } finally {
    db.close()
  }
  for (const folder of UPLOAD_FOLDERS)
    if (fs.existsSync(path.join(dataDir, folder)))
      fs.cpSync(path.join(dataDir, folder), path.join(building, folder), { recursive: true })
  fs.renameSync(building, ready(template, kind))
}
