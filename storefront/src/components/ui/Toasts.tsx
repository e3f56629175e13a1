import { ToastContainer } from 'react-toastify'
import 'react-toastify/ReactToastify.css'

/**
 * Where a public screen's toasts appear. Mounted only by the screens that raise toasts, so
 * react-toastify and its stylesheet are in their chunks, not in every page.
 */
export function Toasts() {
  return <ToastContainer position="top-center" newestOnTop />
}
