/** Every route of the storefront, once (spec section 2). */
export const paths = {
  home: '/',
  papers: '/papers',
  proofs: '/proofs',
  updates: '/updates',
  legal: '/legal',
  terms: '/legal#terms',
  privacy: '/legal#privacy',
  walletInfo: '/wallet-info',
  store: '/store',
  product: (productId: string | number = ':productId') => `/product/${productId}`,
  checkout: '/checkout',
  pay: (orderId = ':orderId') => `/pay/${orderId}`,
  orderSuccess: (orderId = ':orderId') => `/order/success/${orderId}`,
  /** A buyer whose download link expired or was used up asks for a new one by e-mail. */
  resendLink: '/resend-link',
  downloadPdf: (token: string) => `/download/pdf/${encodeURIComponent(token)}`,
  admin: {
    root: '/admin',
    login: '/admin/login',
    dashboard: '/admin/dashboard',
    products: '/admin/products',
    newProduct: '/admin/products/new',
    editProduct: (productId: string | number = ':productId') => `/admin/products/edit/${productId}`,
    orders: '/admin/orders',
    order: (orderId = ':orderId') => `/admin/orders/${orderId}`,
    profile: '/admin/profile',
    addresses: '/admin/addresses',
    settings: '/admin/settings',
  },
} as const

/** Payload's admin (the CMS for the site's content), served by the same origin. */
export const CMS_URL = '/cms'
