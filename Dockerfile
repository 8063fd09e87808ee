# Engram: GraphQL memory server. SQLite by default (database file on the /data volume);
# set DATABASE_URL=postgresql://… to use PostgreSQL. The server applies pending migrations on start.
#
#   docker build -t engram .
#   docker run -p 4000:4000 -v engram-data:/data engram

# ---- build: dependencies (with dev tools), Prisma clients, TypeScript -> dist/ -------------------
# Node 22 LTS (maintained to April 2027), within package.json's engines (Node 24 runs it too). On
# Node 22 and later SQLite runs on better-sqlite3 13, prebuilt for N-API (packages/better-sqlite3);
# better-sqlite3 12, for Node 20, still compiles here on install and is never loaded. Both stages
# use the same Node all the same: what the install built is reused below.
FROM node:22-bookworm-slim AS build

# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make gcc g++ \
 && rm -rf /var/lib/apt/lists/*
# node-gyp: use the headers shipped with this Node instead of downloading them.
ENV npm_config_nodedir=/usr/local

WORKDIR /app

# The postinstall script (scripts/prisma-generate.mjs) builds prisma/<provider>/schema.prisma from
# prisma/models.prisma and runs `prisma generate` (the CLI is a devDependency, present here).
COPY package.json package-lock.json ./
# node_modules/better-sqlite3 links to packages/better-sqlite3 (it picks the version by Node).
COPY packages ./packages
COPY scripts ./scripts
COPY prisma ./prisma
# The postinstall script also bundles the dashboard (ui/ -> dist/ui, scripts/build-ui.mjs) and
# compiles SQLite's ranking function for tag + word queries (native/, scripts/build-native.mjs; gcc
# is installed above).
COPY ui ./ui
COPY native ./native
RUN npm ci

COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# Compile to dist/src/main.js, then drop devDependencies. --ignore-scripts: the postinstall must
# not run again once the Prisma CLI is gone.
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts

# ---- runtime -------------------------------------------------------------------------------------
FROM node:22-bookworm-slim

# SHUTDOWN_GRACE_MS: below Docker's default 10 s stop timeout, so the server closes lingering
# connections itself before Docker's SIGKILL.
ENV NODE_ENV=production \
    DATABASE_URL=file:/data/engram.db \
    PORT=4000 \
    SHUTDOWN_GRACE_MS=8000

WORKDIR /app
# Migrations are read at runtime from <project root>/prisma/<provider>/migrations; the project root
# is the nearest directory above dist/ holding package.json and prisma/.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/dist ./dist
COPY --from=build /app/native/build ./native/build

RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node

EXPOSE 4000
# No curl in the slim image: Node's fetch. /health answers 503 when the database is unreachable.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# --max-semi-space-size: see "npm start" in the README (Configuration).
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
