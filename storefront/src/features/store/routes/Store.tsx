// Replaced by the screen's own issue; until then the route shows the 404 page.
export { NotFoundRoute as Component } from '@/features/misc/routes/NotFound'
