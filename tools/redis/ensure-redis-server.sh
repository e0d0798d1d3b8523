#!/usr/bin/env bash
# The Redis tests start their own redis-server (a free port, a temporary directory, no
# persistence). This makes sure there is one: the one on PATH, else Debian's package when we are
# root with apt-get (as in CI), else a failure that says what to run.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "redis-server not found: installing Debian's redis-server package" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  # The package may start a system service; the tests start their own servers.
  if command -v service >/dev/null 2>&1; then service redis-server stop >/dev/null 2>&1 || true; fi
  command -v redis-server >/dev/null 2>&1 && exit 0
fi
echo "redis-server is needed by the tests and could not be installed here." >&2
echo "Install it and run make test again: sudo apt-get install -y redis-server (Debian, Ubuntu), brew install redis (macOS)." >&2
exit 1
