// Set-up run before every test file of the projects whose files share a worker process
// (`isolate: false` in vitest.config.ts). Sharing the process keeps Payload's, Next's and the
// other packages' imports (several CPU-seconds each) across files; what a file may change for
// the next one is put back here instead: the settings in process.env, the shop's own modules
// (settings are read when they are first imported) and Payload's cache of started instances.
import { vi } from 'vitest'

type Shared = { __settingsBeforeFiles?: NodeJS.ProcessEnv; _payload?: Map<string, unknown> }
const shared = globalThis as typeof globalThis & Shared

const before = (shared.__settingsBeforeFiles ??= { ...process.env })
for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name]
Object.assign(process.env, before)

// The shop's modules are evaluated again for this file; packages under node_modules are
// Node's own imports and stay loaded.
vi.resetModules()
// getPayload() keeps one instance per key for the process; each file starts its own shop.
shared._payload?.clear()
