# A throwaway PostgreSQL server for the tests, sourced by .ci/run (or by hand:
#     source .ci/postgres.sh && start_postgres && python -m pytest; stop_postgres
# ). start_postgres installs the server with apt-get if it is missing, makes a cluster in a
# temporary folder owned by an unprivileged user (PostgreSQL refuses to run as root), starts
# it on 127.0.0.1 on a free port and exports RAILCHAT_TEST_POSTGRES; stop_postgres stops it
# and removes the folder.

PG_CI_USER=railchat-ci

pg_bin_dir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
        echo "$dir"
    elif command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
        dirname "$(command -v initdb)"
    else
        return 1
    fi
}

as_pg_user() {  # from the cluster's folder: that user may not enter the checkout's
    if [ "$(id -u)" -eq 0 ]; then
        (cd "$PG_DIR" && runuser -u "$PG_CI_USER" -- "$@")
    else
        (cd "$PG_DIR" && "$@")
    fi
}

start_postgres() {
    if ! PG_BIN=$(pg_bin_dir); then
        echo "CI: installing PostgreSQL" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } \
            >/dev/null || { echo "CI: cannot install PostgreSQL" >&2; return 1; }
        PG_BIN=$(pg_bin_dir) || { echo "CI: no initdb after installing" >&2; return 1; }
    fi
    if [ "$(id -u)" -eq 0 ] && ! id "$PG_CI_USER" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_CI_USER" || return 1
    fi
    PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/railchat-pg.XXXXXX") || return 1
    [ "$(id -u)" -ne 0 ] || chown "$PG_CI_USER" "$PG_DIR"
    local port
    port=$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_pg_user "$PG_BIN/initdb" -D "$PG_DIR/data" -U railchat --auth=trust -E UTF8 --locale=C \
        >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    # durability is not tested here: no flush to disk, so the tests run at memory speed
    as_pg_user "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 start \
        -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        >/dev/null || { cat "$PG_DIR/server.log" >&2; return 1; }
    as_pg_user "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U railchat railchat_test || return 1
    export RAILCHAT_TEST_POSTGRES="postgresql://railchat@127.0.0.1:$port/railchat_test"
    echo "CI: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
}

stop_postgres() {
    if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ]; then
        as_pg_user "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
        rm -rf "$PG_DIR"
    fi
}
