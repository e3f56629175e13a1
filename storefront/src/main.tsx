import './styles/global.css'

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element.')
// React and the app load after the browser's first paint: a page the server drew shows at once
// instead of after the whole app ran on the phone's CPU (issue 18). The web process names the
// app's files in the page (modulepreload), so they download meanwhile.
requestAnimationFrame(() =>
  setTimeout(() => void import('./app/start').then(({ start }) => start(root))),
)
