# Shared helpers of scripts/dev.sh and scripts/test.sh: a private Postgres
# cluster made with the machine's own initdb/pg_ctl, the Temporal dev server
# from ./bin/temporal, and waiting for ports. Source it; it defines functions
# only.

KUDOS_ROOT=${KUDOS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
TEMPORAL_VERSION=v1.5.1
TEMPORAL_SQLITE=v1.44.3
STRIPE_MOCK_VERSION=v0.203.0
JAEGER_VERSION=v1.76.0
LIGHTHOUSE_VERSION=12.8.2

say() { printf '\033[1m[kudos]\033[0m %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# pg_bindir finds the Postgres server binaries (PG_BIN overrides).
pg_bindir() {
  # "return 0", never a bare return: in a trap handler (make dev's cleanup
  # on Ctrl-C) a bare return gives the status from before the trap, 130,
  # and set -e then ended the cleanup before it stopped Postgres.
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return 0; fi
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return 0; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && [ -x "$d/initdb" ] || die "Postgres server binaries not found: install postgresql (Debian) or set PG_BIN"
  echo "$d"
}

# as_pg runs a command as the cluster's owner: initdb refuses root, so root
# runs it as the postgres user (created if missing).
as_pg() {
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# pg_start DIR PORT [fast]: initdb DIR on first use, start it on 127.0.0.1:PORT,
# and make sure role and database "kudos" exist. "fast" turns durability off
# (throwaway test clusters only).
pg_start() {
  local dir=$1 port=$2 mode=${3:-}
  local bin; bin=$(pg_bindir)
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir" 2>/dev/null || { as_pg true; chown postgres "$dir"; }; fi
  chmod 700 "$dir"
  if [ ! -f "$dir/PG_VERSION" ]; then
    say "initdb $dir"
    as_pg "$bin/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null \
      || as_pg "$bin/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 >/dev/null || die "initdb failed"
  fi
  local opts="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c max_connections=200"
  [ "$mode" = fast ] && opts="$opts -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  # KUDOS_PG_OPTS: more server options (make bench preloads pg_stat_statements).
  opts="$opts ${KUDOS_PG_OPTS:-}"
  # A cluster left running from DIR (a make dev killed hard) is reused, not
  # refused as a busy port; PG_REUSED tells the caller not to stop it.
  PG_REUSED=
  if as_pg "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
    PG_REUSED=1
  else
    as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -o "$opts" -w -t 60 start >/dev/null || { tail -n 20 "$dir/server.log" >&2; die "postgres did not start (port $port busy?)"; }
  fi
  as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -qtAc \
    "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='kudos') THEN CREATE ROLE kudos LOGIN SUPERUSER; END IF; END\$\$;" >/dev/null
  if [ "$(as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname='kudos'")" != 1 ]; then
    as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres -O kudos kudos
  fi
}

# pg_stop DIR stops the cluster if it runs.
pg_stop() {
  local dir=$1 bin; bin=$(pg_bindir)
  [ -f "$dir/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$dir" -m fast -w -t 30 stop >/dev/null 2>&1
  return 0
}

# KUDOS_TOOLS_CACHE keeps the pinned tools built once per machine, so that a
# fresh clone (or worktree) copies them instead of building them again.
KUDOS_TOOLS_CACHE=${KUDOS_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kudos/tools}

# ensure_tool NAME VERSION PACKAGE [MODULE]: ./bin/NAME, from the tools
# cache when it holds that version, else built with go install (and then
# cached). With MODULE, PACKAGE (relative, ./cmd/x) is built inside that
# module's own directory instead: go install refuses a module whose go.mod
# has replace directives (Jaeger's). A MODULE that is a directory (one of
# tools/) is built there, with the versions its go.mod pins.
ensure_tool() {
  local name=$1 version=$2 pkg=$3 module=${4:-}
  have_tool "$name" "$version" && return 0
  local cached="$KUDOS_TOOLS_CACHE/$name-$version" tmp="$KUDOS_ROOT/bin/.$name.build.$$"
  say "building $name $version into ./bin (first run on this machine only)"
  # Built under a temporary name and moved into place, so that a build cut
  # short (Ctrl-C, a background build still running) never leaves a
  # truncated ./bin/NAME that have_tool would take for the tool.
  if [ -n "$module" ]; then
    local dir=$module
    [ -d "$dir" ] || dir=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -n "$dir" ] || die "could not download $module@$version"
    (cd "$dir" && go build -o "$tmp" "$pkg") || { rm -f "$tmp"; die "could not build $name"; }
  else
    local gobin="$KUDOS_ROOT/bin/.$name.gobin.$$"
    GOBIN="$gobin" go install "$pkg@$version" || { rm -rf "$gobin"; die "could not build $name"; }
    mv "$gobin/$(basename "${pkg%%@*}")" "$tmp" && rm -rf "$gobin"
  fi
  mv "$tmp" "$KUDOS_ROOT/bin/$name" && echo "$version" >"$KUDOS_ROOT/bin/.$name.version"
  mkdir -p "$KUDOS_TOOLS_CACHE" && cp "$KUDOS_ROOT/bin/$name" "$cached.tmp.$$" && mv "$cached.tmp.$$" "$cached" || true
}

# have_tool NAME VERSION: whether ./bin/NAME is there at that version (its
# stamp, bin/.NAME.version: a pin changed is taken up by the next run),
# copying it from the tools cache when the cache holds that version; builds
# nothing.
have_tool() {
  local name=$1 version=$2 cached="$KUDOS_TOOLS_CACHE/$1-$2" stamp="$KUDOS_ROOT/bin/.$1.version"
  [ -x "$KUDOS_ROOT/bin/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ] && return 0
  mkdir -p "$KUDOS_ROOT/bin"
  [ -x "$cached" ] && cp "$cached" "$KUDOS_ROOT/bin/.$name.copy.$$" && mv "$KUDOS_ROOT/bin/.$name.copy.$$" "$KUDOS_ROOT/bin/$name" &&
    echo "$version" >"$stamp"
}

# ensure_temporal provides ./bin/temporal (the pinned CLI), built inside
# tools/temporal, whose go.mod pins it with TEMPORAL_SQLITE: the CLI's own
# modernc.org/sqlite (v1.34.1) could leave a statement's interruption (a
# context ended under load) on its connection, and from that moment every
# query of the dev server's in-memory database failed with "interrupted
# (9)" (Temporal's server moved to v1.44.3 for the same errors). The cache
# key names both versions.
ensure_temporal() {
  ensure_tool temporal "$TEMPORAL_VERSION-sqlite-$TEMPORAL_SQLITE" github.com/temporalio/cli/cmd/temporal "$KUDOS_ROOT/tools/temporal"
}

# ensure_lighthouse installs Lighthouse (a measuring tool of make bench
# ARGS='-only lighthouse', never a dependency of the project) with npm into
# a folder of its own in the cache, KUDOS_LIGHTHOUSE_DIR, once per machine
# and version, and prints that folder.
ensure_lighthouse() {
  local dir=${KUDOS_LIGHTHOUSE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kudos/lighthouse}
  if [ "$(node -p "require('$dir/node_modules/lighthouse/package.json').version" 2>/dev/null)" != "$LIGHTHOUSE_VERSION" ]; then
    say "installing Lighthouse $LIGHTHOUSE_VERSION into $dir (first run on this machine only)"
    mkdir -p "$dir" || die "cannot create $dir"
    [ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
    npm --prefix "$dir" install --no-audit --no-fund --loglevel=error "lighthouse@$LIGHTHOUSE_VERSION" >&2 || die "npm install lighthouse failed"
  fi
  echo "$dir"
}

# ensure_jaeger provides ./bin/jaeger (the pinned all-in-one Jaeger: OTLP
# in on 127.0.0.1:4317/4318, traces in memory, its UI on :16686), for make
# dev's traces. Its first build is long (over an hour on a loaded 2-core
# machine): go build inside the module, then cached. make dev runs it in
# the background (build_jaeger_in_background) rather than wait for it.
ensure_jaeger() { ensure_tool jaeger "$JAEGER_VERSION" ./cmd/jaeger github.com/jaegertracing/jaeger; }

# ensure_jaeger_ui sets JAEGER_UI_DIR to the built jaeger-ui of the pinned
# Jaeger (go build embeds only a placeholder page; Jaeger's releases embed
# this build). It is kept in the tools cache, taken from jaeger-ui's
# release on GitHub (assets.tar.gz, as Jaeger's own build does) or, where
# GitHub is out of reach, built with npm from a jaeger-ui checkout named by
# KUDOS_JAEGER_UI_SRC. Returns 1, with JAEGER_UI_DIR empty, when neither
# works: Jaeger then serves its placeholder page, and its API still works.
ensure_jaeger_ui() {
  local dir="$KUDOS_TOOLS_CACHE/jaeger-ui-$JAEGER_VERSION" tmp
  JAEGER_UI_DIR=
  if [ ! -f "$dir/index.html" ]; then
    tmp=$(mktemp -d) && mkdir -p "$KUDOS_TOOLS_CACHE" || return 1
    if curl -fsSL --connect-timeout 10 --max-time 180 -o "$tmp/assets.tar.gz" \
      "https://github.com/jaegertracing/jaeger-ui/releases/download/$JAEGER_VERSION/assets.tar.gz" 2>/dev/null &&
      tar -xzf "$tmp/assets.tar.gz" -C "$tmp" packages/jaeger-ui/build; then
      say "jaeger-ui $JAEGER_VERSION downloaded"
    elif [ -n "${KUDOS_JAEGER_UI_SRC:-}" ] && [ -f "$KUDOS_JAEGER_UI_SRC/packages/jaeger-ui/package.json" ]; then
      # A checkout built before is taken as it is.
      if [ ! -f "$KUDOS_JAEGER_UI_SRC/packages/jaeger-ui/build/index.html" ]; then
        say "building jaeger-ui from $KUDOS_JAEGER_UI_SRC (npm; 20 minutes on a loaded 2-core machine)"
        # jaeger-ui asks for Node 24 (engine-strict); its build runs on Node 20.
        (export npm_config_engine_strict=false && cd "$KUDOS_JAEGER_UI_SRC" && npm ci --no-audit --no-fund &&
          cd packages/jaeger-ui && npm run build) >&2
      fi &&
        mkdir -p "$tmp/packages/jaeger-ui" && cp -r "$KUDOS_JAEGER_UI_SRC/packages/jaeger-ui/build" "$tmp/packages/jaeger-ui/build"
    fi
    if [ -f "$tmp/packages/jaeger-ui/build/index.html" ]; then
      rm -rf "$dir.tmp.$$" && mv "$tmp/packages/jaeger-ui/build" "$dir.tmp.$$" && mv -T "$dir.tmp.$$" "$dir" 2>/dev/null || rm -rf "$dir.tmp.$$"
    fi
    rm -rf "$tmp"
  fi
  [ -f "$dir/index.html" ] && JAEGER_UI_DIR=$dir
}

# have_jaeger: whether ./bin/jaeger is ready (or in the tools cache).
have_jaeger() { have_tool jaeger "$JAEGER_VERSION"; }

# build_jaeger_in_background LOG: starts ensure_jaeger detached from this
# shell (so Ctrl-C on make dev does not cut an hour of work short), at low
# priority, once per machine at a time (a lock in the tools cache), its
# output in LOG.
build_jaeger_in_background() {
  local log=$1
  mkdir -p "$KUDOS_TOOLS_CACHE"
  setsid nohup nice -n 10 flock -n "$KUDOS_TOOLS_CACHE/jaeger-$JAEGER_VERSION.lock" \
    bash -c 'source "$1/scripts/lib.sh" && ensure_jaeger && { ensure_jaeger_ui || true; }' _ "$KUDOS_ROOT" >"$log" 2>&1 </dev/null &
}

# ensure_stripe_mock provides ./bin/stripe-mock (Stripe's API mock, for the
# Stripe adapter's tests).
ensure_stripe_mock() { ensure_tool stripe-mock "$STRIPE_MOCK_VERSION" github.com/stripe/stripe-mock; }

# kill_tree PID [SIGNAL]: signal PID and every process under it (its
# children are listed before it is signalled, so none is missed).
kill_tree() {
  local pid=$1 sig=${2:-TERM} children c
  children=$(ps -o pid= --ppid "$pid" 2>/dev/null)
  kill -"$sig" "$pid" 2>/dev/null || true
  for c in $children; do kill_tree "$c" "$sig"; done
}

# temporal_start PORT UIPORT [DBFILE|""] LOGFILE: start the dev server in the
# background (headless when UIPORT is 0) with our search attributes; sets
# TEMPORAL_PID.
temporal_start() {
  local port=$1 uiport=$2 dbfile=$3 logfile=$4
  local args=(server start-dev --ip 127.0.0.1 --port "$port" --namespace default --log-level warn
    --search-attribute AccountId=Keyword --search-attribute Plan=Keyword
    --search-attribute SubscriptionStatus=Keyword --search-attribute PaymentState=Keyword
    --search-attribute PaymentStateSince=Datetime --search-attribute DisputeOpen=Bool)
  if [ "$uiport" = 0 ]; then args+=(--headless); else args+=(--ui-port "$uiport"); fi
  [ -n "$dbfile" ] && args+=(--db-filename "$dbfile")
  # KUDOS_TEMPORAL_SUGGEST_CAN: the history length at which the server
  # suggests continue-as-new (4K events by default); make test lowers it so
  # that a test reaches it in seconds.
  [ -n "${KUDOS_TEMPORAL_SUGGEST_CAN:-}" ] &&
    args+=(--dynamic-config-value "limit.historyCount.suggestContinueAsNew=$KUDOS_TEMPORAL_SUGGEST_CAN")
  # GOGC=400: sharing two cores with everything else, the dev server spent
  # about a tenth of its CPU collecting garbage (perf, docs/performance.md);
  # collecting four times less often costs memory, which a development
  # machine has plenty of. A production Temporal is tuned on its own hosts.
  GOGC=400 "$KUDOS_ROOT/bin/temporal" "${args[@]}" >"$logfile" 2>&1 &
  TEMPORAL_PID=$!
  wait_port 127.0.0.1 "$port" 60 || { tail -n 20 "$logfile" >&2; die "Temporal did not start (port $port busy?)"; }
}

# TEMPORAL_SERVER_VERSION is the go.temporal.io/server that the pinned CLI
# embeds; tools/temporal-sql/go.mod requires it and the CLI's other
# dependency versions, so its build reuses what the CLI's build compiled.
TEMPORAL_SERVER_VERSION=v1.29.1

# ensure_temporal_sql builds ./bin/temporal-sql (a single-node Temporal
# server persisting to PostgreSQL, tools/temporal-sql) when it is missing or
# older than its sources: go build inside that module, so Kudos's own go.mod
# does not carry the server. Opt-in only (scripts/faults.sh with
# KUDOS_TEMPORAL_PERSISTENCE=postgres); docs/scaling.md.
ensure_temporal_sql() {
  local src="$KUDOS_ROOT/tools/temporal-sql" out="$KUDOS_ROOT/bin/temporal-sql"
  if [ -x "$out" ] && [ -z "$(find "$src" -newer "$out" -type f | head -n 1)" ]; then return 0; fi
  say "building temporal-sql (go.temporal.io/server $TEMPORAL_SERVER_VERSION) into ./bin"
  mkdir -p "$KUDOS_ROOT/bin"
  (cd "$src" && go build -o "$out" .) || die "could not build temporal-sql"
}

# temporal_sql_setup DIR PGPORT: a durable Postgres cluster for Temporal in
# DIR on 127.0.0.1:PGPORT (pg_start), its databases temporal and
# temporal_visibility, and the server's schema at the version it embeds
# (setup-schema -v 0.0, then update-schema with the embedded versioned
# schema: what temporal-sql-tool does for a new cluster). Running it again,
# the cluster up or down, changes nothing.
temporal_sql_setup() {
  local dir=$1 pgport=$2 db bin
  ensure_temporal_sql
  bin=$(pg_bindir)
  as_pg "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1 || pg_start "$dir" "$pgport"
  sql_tool() {
    local out
    out=$("$KUDOS_ROOT/bin/temporal-sql" sql-tool --endpoint 127.0.0.1 --port "$pgport" --user postgres \
      --plugin postgres12 "$@" 2>&1) || { printf '%s\n' "$out" >&2; die "temporal-sql-tool $* failed"; }
  }
  psql_at() { as_pg "$bin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d "$1" -qtAc "$2"; }
  for db in temporal temporal_visibility; do
    [ "$(psql_at postgres "SELECT 1 FROM pg_database WHERE datname='$db'")" = 1 ] ||
      sql_tool --database "$db" create-database
    [ "$(psql_at "$db" "SELECT 1 FROM pg_tables WHERE tablename='schema_version'")" = 1 ] ||
      sql_tool --database "$db" setup-schema -v 0.0
  done
  sql_tool --database temporal update-schema --schema-name postgresql/v12/temporal
  sql_tool --database temporal_visibility update-schema --schema-name postgresql/v12/visibility
}

# temporal_sql_start PORT PGPORT LOGFILE: start bin/temporal-sql in the
# background, frontend on 127.0.0.1:PORT and the other services on the next
# ports (tools/temporal-sql/config/development.yaml), on the cluster
# temporal_sql_setup made; sets TEMPORAL_PID. The namespace and search
# attributes are `kudos temporal setup`'s job, as on any self-hosted cluster.
temporal_sql_start() {
  local port=$1 pgport=$2 logfile=$3
  TEMPORAL_SQL_PORT=$port TEMPORAL_SQL_PG_PORT=$pgport \
    "$KUDOS_ROOT/bin/temporal-sql" start "$KUDOS_ROOT/tools/temporal-sql/config" >"$logfile" 2>&1 &
  TEMPORAL_PID=$!
  wait_port 127.0.0.1 "$port" 120 || { tail -n 20 "$logfile" >&2; die "temporal-sql did not start (port $port busy?)"; }
}

# wait_port HOST PORT SECONDS: wait until something listens.
wait_port() {
  local host=$1 port=$2 secs=$3 i
  for ((i = 0; i < secs * 5; i++)); do
    (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

# wait_log FILE TEXT SECONDS: wait until FILE contains TEXT.
wait_log() {
  local file=$1 text=$2 secs=$3 i
  for ((i = 0; i < secs * 5; i++)); do
    grep -q "$text" "$file" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

# wait_http URL SECONDS: wait until URL answers 200.
wait_http() {
  local url=$1 secs=$2 i
  for ((i = 0; i < secs * 5; i++)); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url" 2>/dev/null)" = 200 ] && return 0
    sleep 0.2
  done
  return 1
}

# ui_ready installs the UI's npm packages and builds it when its sources are
# newer than the build.
ui_ready() {
  local ui="$KUDOS_ROOT/ui"
  if [ ! -d "$ui/node_modules" ] || [ "$ui/package-lock.json" -nt "$ui/node_modules/.package-lock.json" ]; then
    say "installing the UI's npm packages"
    (cd "$ui" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed"
  fi
  if [ ! -f "$ui/dist/index.html" ] || [ -n "$(find "$ui/src" "$ui/index.html" "$ui/package.json" "$ui/vite.config.ts" -newer "$ui/dist/index.html" 2>/dev/null | head -n 1)" ]; then
    say "building the UI"
    local log; log=$(mktemp)
    (cd "$ui" && npm run build --silent >"$log" 2>&1) || { cat "$log" >&2; rm -f "$log"; die "the UI build failed"; }
    rm -f "$log"
  fi
}
