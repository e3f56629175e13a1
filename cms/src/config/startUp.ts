import type { Env } from './env'
import { EnvError, loadEnv } from './env'

/**
 * How each of the shop's processes starts (the web process, the payment worker, the chain
 * simulator): the settings are read once, and a process that cannot start says why in a few
 * lines, not a stack trace, and exits with 1.
 */
export function settingsOrExit(processName: string): Env {
  try {
    return loadEnv()
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(`${processName} cannot start.\n${error.message}`)
      process.exit(1)
    }
    throw error
  }
}

/** Runs a process's `main`, ending the process with 1 and the error if it fails to start. */
export function runProcess(processName: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(`${processName} failed to start:`, error)
    process.exit(1)
  })
}

/** Tells the process that started this one (`npm start`), if any, that it is ready. */
export function announceReady(): void {
  process.send?.({ ready: true })
}
