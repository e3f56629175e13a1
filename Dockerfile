# The shop's image: one image, the web process by default, the payment worker by command
# (docker-compose.yml). The build stage compiles everything once; the runtime stage holds the
# compiled bundle and production dependencies only, runs as `node` on a read-only root
# filesystem (compose sets read_only), and writes only to /data.

# Node 24: the active LTS line (Node 20 reached end of life in April 2026).
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY chain/package.json chain/
COPY cms/package.json cms/
COPY storefront/package.json storefront/
COPY payment-worker/package.json payment-worker/
RUN npm ci --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build && node scripts/pack-bundle.mjs /bundle

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/data \
    npm_config_cache=/tmp/npm \
    npm_config_update_notifier=false \
    npm_config_fund=false
WORKDIR /app
COPY --from=build /bundle ./
RUN npm ci --omit=dev --no-audit --no-fund \
  && rm -rf /tmp/npm /root/.npm \
  && mkdir -p /data \
  && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--optimize-for-size", "--conditions=production", "dist/web.mjs"]
