export const WEB_NODE_ARGS: string[]
export const WORKER_NODE_ARGS: string[]
export function nodeArgsOf(name: string): string[]
