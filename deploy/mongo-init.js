// Run by the mongo-init service at every `docker compose up`: starts the replica set (rs0, one
// member) and creates the shop's database user, each only when missing.
try {
  rs.status()
} catch (error) {
  if (error.codeName !== 'NotYetInitialized') throw error
  rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongo:27017' }] })
  print('replica set rs0 initiated')
}
// Wait for the primary before writing users.
for (let i = 0; i < 60 && !db.hello().isWritablePrimary; i += 1) sleep(1000)
if (!db.hello().isWritablePrimary) throw new Error('no primary after 60 s')

const user = process.env.MONGO_APP_USER
const shop = db.getSiblingDB('bookshop')
if (shop.getUser(user)) {
  shop.updateUser(user, { pwd: process.env.MONGO_APP_PASSWORD })
  print(`database user ${user} exists: password kept in step with .env`)
} else {
  shop.createUser({
    user,
    pwd: process.env.MONGO_APP_PASSWORD,
    roles: [{ role: 'readWrite', db: 'bookshop' }],
  })
  print(`database user ${user} created`)
}
