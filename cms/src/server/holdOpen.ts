/**
 * Keeps the process alive until start-up is done. On Node 20, tsx's module hooks run on a
 * separate thread that does not hold the event loop open: while a dynamic import is pending and
 * nothing else is (no server, no timer), the process can exit with code 0 before it starts
 * (seen about once in six starts on a loaded machine). Call the returned function once the
 * process holds its own handles (a listening server, a loop timer).
 */
export function holdProcessOpen(): () => void {
  const timer = setInterval(() => undefined, 1 << 30)
  return () => clearInterval(timer)
}
