#!/usr/bin/env bash
# QuantLib for the reference suite (tests/unit/quantlib-reference.test.ts): Debian's quantlib-python for /usr/bin/python3.
# Installs it where it can (root with apt-get); otherwise prints why, and the suite skips itself with the same reason.
PY="${QUANTLIB_PYTHON:-/usr/bin/python3}"
if "$PY" -c "import QuantLib" 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "QuantLib is missing; installing Debian's quantlib-python"
  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq quantlib-python || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq quantlib-python)) >/dev/null 2>&1
  "$PY" -c "import QuantLib" 2>/dev/null && exit 0
fi
echo "NOTE: QuantLib is not importable by $PY: the QuantLib reference tests will be SKIPPED (install quantlib-python, or set QUANTLIB_PYTHON)."
exit 0
