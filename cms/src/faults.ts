/**
 * Fault points: named places in the shop's own code where the fault tests stop a process, to
 * check what a restart repairs. Each is off until a test arms it (in its own process, or in the
 * worker's through WORKER_CRASH_AT, a setting production refuses).
 *
 * - `after-record`: a payment was just recorded, before its order's status is settled.
 * - `before-fulfil`: a paid order is about to be delivered: inside the change to PAID before its
 *   delivery is queued, and inside the delivery before the order is delivered.
 */
export const FAULT_POINTS = ['after-record', 'before-fulfil'] as const
export type FaultPoint = (typeof FAULT_POINTS)[number]

/**
 * What an armed fault point does. Where the code awaits the point (`after-record`), an action
 * that returns a promise holds the code there until it settles: a test looks at what other
 * readers see at that moment.
 */
type FaultAction = (detail?: string) => void | Promise<void>

const armed = new Map<FaultPoint, FaultAction>()

/** Runs `action` whenever `point` is reached, until the returned function disarms it. */
export function armFault(point: FaultPoint, action: FaultAction): () => void {
  armed.set(point, action)
  return () => {
    if (armed.get(point) === action) armed.delete(point)
  }
}

/** The code reaches `point` (about `detail`, an order id): the armed action runs, if any. */
export function faultPoint(point: FaultPoint, detail?: string): void | Promise<void> {
  return armed.get(point)?.(detail)
}
