# Shared helpers of scripts/dev.sh and scripts/test.sh: a private Postgres
# cluster made with the machine's own initdb/pg_ctl, the Temporal dev server
# from ./bin/temporal, and waiting for ports. Source it; it defines functions
# only.

KUDOS_ROOT=${KUDOS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
TEMPORAL_VERSION=v1.5.1
STRIPE_MOCK_VERSION=v0.203.0
JAEGER_VERSION=v1.76.0
LIGHTHOUSE_VERSION=12.8.2

say() { printf '\033[1m[kudos]\033[0m %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# pg_bindir finds the Postgres server binaries (PG_BIN overrides).
pg_bindir() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return; fi
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
  as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -o "$opts" -w -t 60 start >/dev/null || { tail -n 20 "$dir/server.log" >&2; die "postgres did not start (port $port busy?)"; }
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
# has replace directives (Jaeger's).
ensure_tool() {
  local name=$1 version=$2 pkg=$3 module=${4:-}
  [ -x "$KUDOS_ROOT/bin/$name" ] && return 0
  local cached="$KUDOS_TOOLS_CACHE/$name-$version"
  mkdir -p "$KUDOS_ROOT/bin"
  if [ -x "$cached" ] && cp "$cached" "$KUDOS_ROOT/bin/$name"; then return 0; fi
  say "building $name $version into ./bin (first run on this machine only)"
  if [ -n "$module" ]; then
    local dir
    dir=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -n "$dir" ] || die "could not download $module@$version"
    (cd "$dir" && go build -o "$KUDOS_ROOT/bin/$name" "$pkg") || die "could not build $name"
  else
    GOBIN="$KUDOS_ROOT/bin" go install "$pkg@$version" || die "could not build $name"
  fi
  mkdir -p "$KUDOS_TOOLS_CACHE" && cp "$KUDOS_ROOT/bin/$name" "$cached.tmp.$$" && mv "$cached.tmp.$$" "$cached" || true
}

# ensure_temporal provides ./bin/temporal (the pinned CLI).
ensure_temporal() { ensure_tool temporal "$TEMPORAL_VERSION" github.com/temporalio/cli/cmd/temporal; }

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
# machine): go build inside the module, then cached.
ensure_jaeger() { ensure_tool jaeger "$JAEGER_VERSION" ./cmd/jaeger github.com/jaegertracing/jaeger; }

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
