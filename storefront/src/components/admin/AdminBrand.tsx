/** The shop's mark and name, tagged Admin: atop the side menu, and dark on the sign-in card. */
export function AdminBrand({ dark = false }: { dark?: boolean }) {
  return (
    <div className={dark ? 'admin-brand admin-brand--dark' : 'admin-brand'}>
      <span className="brand__mark" aria-hidden="true" />
      <span>
        Dual Vote <span className="admin-brand__tag">Admin</span>
      </span>
    </div>
  )
}
