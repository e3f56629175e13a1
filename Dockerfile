# The shop's image: one image, two processes (web and payment worker) chosen by the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY chain/package.json chain/
COPY cms/package.json cms/
COPY storefront/package.json storefront/
COPY payment-worker/package.json payment-worker/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
CMD ["node", "--optimize-for-size", "--conditions=production", "scripts/run-ts.mjs", "cms/src/server/main.ts"]
