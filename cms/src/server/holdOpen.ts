/**
 * Keeps the process alive until start-up is done, so a start-up step that waits on something
 * holding no handle of its own (a queued database write, a pending import) can never end the
 * process silently with code 0. Call the returned function once the process holds its own
 * handles (a listening server, a loop timer).
 */
export function holdProcessOpen(): () => void {
  const timer = setInterval(() => undefined, 1 << 30)
  return () => clearInterval(timer)
}
