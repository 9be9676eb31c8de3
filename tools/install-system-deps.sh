#!/bin/sh
# The system packages the test suite needs beyond Python, from Debian with apt-get (as root, or
# through sudo), each only when it is missing; nothing to do otherwise:
# - Chromium and its driver, for the playground's browser test (tests/e2e/test_playground_browser.py);
# - PostgreSQL (the server's initdb and pg_ctl), for the store's tests on PostgreSQL: the tests start
#   a throwaway cluster of their own (tests/pgserver.py), so no server needs to run beforehand.
# Used by the README's test command and by .ci/run.
set -eu
PACKAGES=""
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    PACKAGES="chromium chromium-driver"
fi
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    PACKAGES="$PACKAGES postgresql"
fi
[ -n "$PACKAGES" ] || exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing Debian's$PACKAGES (apt-get) for the tests..." >&2
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
