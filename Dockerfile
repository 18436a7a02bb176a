# netcfg: docker build -t netcfg . && docker run -p 3000:3000 -e API_KEY="$(openssl rand -hex 32)" netcfg
# The image listens on 0.0.0.0, which src/config.ts allows only with API_KEY (>= 32 characters) set.

# --- build: compile TypeScript with the dev dependencies ---
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the `prepare` script would build before the sources are copied; the build is the next step.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
# The console's build (scripts/build-console.ts) compiles the PATCH schema into the page.
COPY schemas ./schemas
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# --- runtime: production dependencies, the compiled code, the schemas and the shipped networks ---
FROM node:20-bookworm-slim
# git: history, GIT_COMMIT and the wait for git's index.lock all run the git command line; without it a
# mounted work tree is treated as a plain folder. safe.directory: the mounted tree (a clone or git-sync's
# checkout) is usually owned by another uid than `node`, which git would otherwise refuse to read.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git \
 && rm -rf /var/lib/apt/lists/* \
 && git config --system --add safe.directory '*'
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: without dev dependencies the `prepare` build cannot run (and dist/ comes from the build stage).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# src/paths.ts finds the project root as the folder above dist/src that holds schemas/network.schema.json.
COPY schemas ./schemas
# CONFIG_DIR defaults to config/networks under this WORKDIR; PATCH writes there (files, .locks/, .tmp/).
COPY --chown=node:node config ./config
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
