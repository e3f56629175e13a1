export type Row = {
  section: string
  label: string
  value: number | string
  unit: string
  detail: string
  target?: string
  met?: boolean
}

export function rowsOf(results: Record<string, unknown>): Row[]
export function printTable(results: Record<string, unknown>): void
export function compareRuns(a: Record<string, unknown>, b: Record<string, unknown>): void
