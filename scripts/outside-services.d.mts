export type Mail = { from: string; to: string[]; raw: string }

export function startRateSources(eurPerBsv: number): Promise<{
  coingeckoUrl: string
  coinpaprikaUrl: string
  close: () => Promise<void>
}>

export function startSmtpServer(): Promise<{
  port: number
  mails: Mail[]
  close: () => Promise<void>
}>

export function freePort(): Promise<number>
