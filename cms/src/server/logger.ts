import pino from 'pino'
import { PinoPretty } from 'pino-pretty'

import type { Env } from '../config/env'

/**
 * Human-readable logs in a developer's terminal (test mode, output to a TTY); JSON everywhere
 * else (production, pipes, files, the tests), one object per line for log collectors.
 */
export const prettyLogs = (env: Pick<Env, 'isProduction'>): boolean =>
  !env.isProduction && process.stdout.isTTY === true

/** One structured logger per process; never log secrets, passwords or full tokens. */
export function createLogger(
  level: pino.LevelWithSilent = 'info',
  name = 'web',
  { pretty = false, destination }: { pretty?: boolean; destination?: pino.DestinationStream } = {},
) {
  const options: pino.LoggerOptions = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
      ],
      censor: '[redacted]',
    },
  }
  if (!pretty) return destination ? pino(options, destination) : pino(options)
  return pino(
    options,
    PinoPretty({
      destination: destination ?? 1,
      sync: true,
      colorize: !destination,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      messageFormat: '{if orderId}[order {orderId}] {end}{msg}',
      singleLine: true,
    }),
  )
}

export type Logger = pino.Logger
