// The servers around the shop: the outside services (CoinGecko, CoinPaprika, SMTP), the chain
// simulator, the static-file ceiling of the catalogue section and Caddy in front of the pages.
import fs from 'node:fs'
import https from 'node:https'
import path from 'node:path'

import { startRateSources, startSmtpServer } from '../../scripts/outside-services.mjs'
import {
  EUR_PER_BSV,
  FRONT_HTTP_PORT,
  FRONT_HTTPS_PORT,
  PORT,
  SIM_PORT,
  root,
  simBase,
  waitUntil,
  workPath,
} from './context.mjs'
import { closeAtEnd, launch } from './processes.mjs'

let outside
/**
 * Local CoinGecko and CoinPaprika servers and a local SMTP server, started once per run. Each
 * message the SMTP server keeps carries when it arrived (`at`) and its subject.
 */
export async function outsideServices() {
  if (!outside) {
    const rates = await startRateSources(EUR_PER_BSV)
    const smtp = await startSmtpServer()
    const keep = smtp.mails.push.bind(smtp.mails)
    smtp.mails.push = (...mails) =>
      keep(
        ...mails.map((mail) => ({
          ...mail,
          at: Date.now(),
          subject: /^Subject: (.*)$/m.exec(mail.raw)?.[1]?.trim() ?? '',
        })),
      )
    closeAtEnd(rates.close, smtp.close)
    outside = { rates, smtp }
  }
  return outside
}

/** The messages the SMTP server has received so far (each with `to`, `subject`, `at`). */
export const mailsReceived = () => outside?.smtp.mails ?? []

/** The chain simulator as its own process (WhatsOnChain's API on loopback), from the bundle. */
export async function startSimulator() {
  const dir = workPath('simulator')
  launch(
    'chain simulator',
    process.execPath,
    ['--conditions=production', path.join(root, 'dist/chain-simulator.mjs')],
    {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      SIMULATOR_PORT: String(SIM_PORT),
      BSV_NETWORK: 'test',
      DATA_DIR: dir,
      DATABASE_URI: `file:${path.join(dir, 'unused.db')}`,
      LOG_LEVEL: 'warn',
    },
  )
  await waitUntil(async () => (await fetch(`${simBase}/healthz`)).ok, {
    what: 'the chain simulator',
  })
}

/** Express serving `dir` with express.static in a process of its own (bench/static-server.mjs). */
export async function startStaticServer(dir, port) {
  const server = launch(
    'static server',
    process.execPath,
    [path.join(root, 'bench/static-server.mjs'), dir, String(port)],
    process.env,
  )
  await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/product.json`)).ok, {
    what: 'the static server',
  })
  return server
}

/** Where a command is on PATH, or null. */
function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, command)
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      // not here
    }
  }
  return null
}

/**
 * The shop's front door as owners run it: Caddy with the repository's Caddyfile (deploy/), HTTPS
 * from its local certificate authority, HTTP/2, compression, proxying to the web process. A
 * shopper's phone meets the shop there, never the web process's own plain HTTP/1.1. Without
 * Caddy installed it answers `{ skipped }` with the reason: the pages are then measured from the
 * web process.
 */
export async function startFrontDoor() {
  const caddy = onPath('caddy')
  if (!caddy) return { skipped: 'Caddy not found on PATH (apt-get install caddy)' }
  const home = workPath('caddy')
  const proc = launch(
    'caddy',
    caddy,
    ['run', '--config', path.join(root, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
    {
      PATH: process.env.PATH,
      HOME: home,
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      SHOP_DOMAIN: `localhost:${FRONT_HTTPS_PORT}`,
      SHOP_UPSTREAM: `127.0.0.1:${PORT}`,
      CADDY_GLOBAL: [
        'local_certs',
        'skip_install_trust',
        'admin off',
        `http_port ${FRONT_HTTP_PORT}`,
        `https_port ${FRONT_HTTPS_PORT}`,
      ].join('\n'),
    },
  )
  const front = `https://localhost:${FRONT_HTTPS_PORT}`
  const ca = path.join(home, 'data/caddy/pki/authorities/local/root.crt')
  await waitUntil(
    async () => {
      if (proc.child.exitCode !== null)
        throw Object.assign(new Error(`Caddy exited:\n${proc.output()}`), { fatal: true })
      return fs.existsSync(ca) && (await healthzStatus(`${front}/healthz`, ca)) === 200
    },
    { timeoutMs: 30_000, what: 'Caddy in front of the shop' },
  )
  return { base: front, proc }
}

/** Node asks through Caddy with its certificate authority, as the browser will (HTTP/1.1 here). */
function healthzStatus(url, ca) {
  return new Promise((resolve) => {
    https
      .get(url, { ca: fs.readFileSync(ca) }, (res) => {
        res.resume()
        resolve(res.statusCode)
      })
      .on('error', () => resolve(0))
  })
}
