import { runInWriterScope } from '../../db/sqlite-client'

/**
 * Runs one unit of the worker's work (a pass, the work a push asks for) as one writer: a write
 * Payload makes beside a transaction the unit opened joins it instead of waiting for it (on
 * SQLite, decision 008; nothing changes on MongoDB).
 */
export const asOneWorkUnit = <T>(work: () => T): T => runInWriterScope(work)
