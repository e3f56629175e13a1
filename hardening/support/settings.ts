/**
 * How long the long parts run. `npm run test:hardening` uses the full defaults (the issue's
 * numbers); `npm test` bounds them through the environment to stay inside its time budget.
 */
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number, got "${raw}".`)
  return value
}

export const hardening = {
  /** Generated requests per endpoint in the bad-input section. */
  fuzzRuns: positiveInt('HARDENING_FUZZ_RUNS', 150),
  /** Payment cycles flowing while the worker is killed (SIGKILL) at random moments. */
  paymentCycles: positiveInt('HARDENING_PAYMENT_CYCLES', 100),
  /** Worker kills during those cycles. */
  workerKills: positiveInt('HARDENING_WORKER_KILLS', 8),
  /** Web-process kills in the middle of order creation. */
  webKills: positiveInt('HARDENING_WEB_KILLS', 5),
  /** Seconds of mixed traffic in the load section. */
  loadSeconds: positiveInt('HARDENING_LOAD_SECONDS', 300),
}

/** One summary line per section, easy to find in a long test log. */
export function report(line: string) {
  console.log(`[hardening] ${line}`)
}

export const fmt = (n: number) => n.toLocaleString('en-US')
