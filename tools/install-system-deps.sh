#!/bin/sh
# The system packages the test suite needs beyond Python: Debian's Chromium and its driver, for the
# playground's browser test (tests/e2e/test_playground_browser.py). Installed with apt-get (as root, or
# through sudo) only when either is missing; nothing to do otherwise. Used by the README's test
# command and by .ci/run.
set -eu
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing Debian's chromium and chromium-driver (apt-get) for the browser test..." >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
