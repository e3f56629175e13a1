import pino from 'pino'

/** One structured logger for the web process; never log secrets, passwords or full tokens. */
export function createLogger(level: pino.LevelWithSilent = 'info', name = 'web') {
  return pino({
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
  })
}

export type Logger = pino.Logger
