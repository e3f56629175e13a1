import { api } from '@/lib/api-client'

export type ShippingDetails = {
  shippingName: string
  shippingAddressLine1: string
  shippingAddressLine2: string
  shippingCity: string
  shippingStateProvince: string
  shippingPostalCode: string
  shippingCountry: string
  shippingPhone: string
}

/** The order creation request of spec section 3; shipping fields only for PHYSICAL products. */
export type CreateOrderRequest = {
  productId: string | number
  userEmail: string
  tokenAddress: string | null
} & Partial<ShippingDetails>

export type CreateOrderResponse = { success: boolean; orderId?: string | number; error?: string }

/** POST /api/orders/create. A 4xx throws an ApiError carrying the server's `error`. */
export function createOrder(body: CreateOrderRequest): Promise<CreateOrderResponse> {
  return api.post<CreateOrderResponse>(
    '/api/orders/create',
    body,
    'Failed to create order due to a network or server issue.',
  )
}
