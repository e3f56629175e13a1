/**
 * `npm run create-admin -- --email <e> --password <p>`: creates an admin account, in test mode
 * or production, on SQLite or MongoDB (it only uses Payload's Local API, after the migrations
 * Payload runs at start in production). Asks for what the flags leave out, the password without
 * echo. The Staff collection's rules apply (the password policy among them). Exit code 0 when
 * the account exists afterwards as an admin, 1 with one line saying why otherwise.
 */
import { parseArgs } from 'node:util'
import readline from 'node:readline'

import { ValidationError } from 'payload'

import { EnvError, loadEnv } from '../config/env'
import { holdProcessOpen } from '../server/holdOpen'
import { createLogger } from '../server/logger'

function fail(message: string): never {
  console.error(`create-admin: ${message}`)
  process.exit(1)
}

/** Reads one line from the terminal; with `secret`, typed characters are not shown. */
async function ask(question: string, { secret = false } = {}): Promise<string> {
  if (!process.stdin.isTTY) fail(`${question.replace(/:\s*$/, '')} is missing (give it as a flag).`)
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
  })
  if (secret) {
    const output = rl as unknown as { _writeToOutput: (text: string) => void }
    output._writeToOutput = (text) => {
      if (text.includes(question)) process.stdout.write(text)
    }
  }
  const answer = await new Promise<string>((resolve) => rl.question(question, resolve))
  rl.close()
  if (secret) process.stdout.write('\n')
  return answer.trim()
}

holdProcessOpen()
try {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
    allowPositionals: false,
  })
  const env = loadEnv()
  const email = (values.email ?? (await ask('E-mail: '))).trim().toLowerCase()
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail(`"${email}" is not an e-mail address.`)
  const password =
    values.password ?? (await ask('Password (12 characters or more): ', { secret: true }))

  createLogger(env.logLevel, 'create-admin')
  const { getPayload } = await import('payload')
  const { default: config } = await import('../payload.config')
  const { slugs } = await import('../collections/slugs')
  const payload = await getPayload({ config })

  const existing = await payload.find({
    collection: slugs.staff,
    where: { email: { equals: email } },
    limit: 1,
    depth: 0,
  })
  if (existing.docs.length > 0) {
    const staff = existing.docs[0]!
    if (staff.role === 'admin') {
      process.stdout.write(`create-admin: ${email} is already an admin; nothing changed.\n`)
      process.exit(0)
    }
    fail(
      `${email} exists as ${String(staff.role)}: promote it in /cms (Staff) as an admin, or choose another e-mail.`,
    )
  }
  try {
    await payload.create({
      collection: slugs.staff,
      data: { email, password, role: 'admin', name: values.name ?? null },
    })
  } catch (error) {
    if (error instanceof ValidationError)
      fail(error.data.errors.map((e) => `${e.path}: ${e.message}`).join('; '))
    throw error
  }
  process.stdout.write(
    `create-admin: ${email} can now sign in at ${env.publicUrl}/admin and /cms.\n`,
  )
  process.exit(0)
} catch (error) {
  fail(
    error instanceof EnvError
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error),
  )
}
