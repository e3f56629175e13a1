export * from './order-status'
export * from './money'
export * from './contracts'
export * from './payments'
