# Cockpit: one image, every role (ROLES=api,relay,simulator by default). Data lives in the /data volume.
# Build stage: install everything, build the client.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --config config/vite.config.ts

# Runtime stage: production dependencies, the sources (Node 24 runs TypeScript by type stripping) and the built client.
FROM node:24-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    DEMO=off \
    LOG_LEVEL=info
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY config ./config
COPY shared ./shared
COPY server ./server
COPY --from=build /app/dist/client ./dist/client
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# A small V8 new space: without it a burst of thousands of live streams connecting grows it to ~128 MiB
# that is never given back (docs/performance.md: RSS per idle stream 23 → 9 KiB at 10,000 streams).
CMD ["node", "--max-semi-space-size=4", "server/main.ts"]
