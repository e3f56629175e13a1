/**
 * The web process: validates the settings, starts Payload and Next, seeds test mode, and
 * serves the shop on one port. `npm start` runs it beside the payment worker.
 */
import { announceReady, runProcess, settingsOrExit } from '../config/startUp'
import { holdProcessOpen } from './holdOpen'

const dev = process.argv.includes('--dev')

async function main() {
  const release = holdProcessOpen()
  const env = settingsOrExit('The shop')
  // Next switches NODE_ENV to production when it is unset: pin test mode explicitly.
  // eslint-disable-next-line no-restricted-properties -- written for Next, from the settings
  ;(process.env as Record<string, string>).NODE_ENV = env.nodeEnv
  // Imported only once the settings are known to be valid: importing the Payload config reads them.
  const { startWebProcess } = await import('./start')
  try {
    await startWebProcess({
      env,
      dev,
      onListening: () => {
        release()
        announceReady()
      },
    })
  } catch (error) {
    // Another shop (or anything else) on the port: say so in one line, not a stack trace.
    if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
      console.error(
        `The shop cannot start: port ${env.port} is in use. Stop the other process or set PORT.`,
      )
      process.exit(1)
    }
    throw error
  }
}

runProcess('The shop', main)
