#!/usr/bin/env bash
# The whole test suite: lint (format, lint rules, layer rules), typecheck, unit, integration (real PostgreSQL), embedded smoke, browser end-to-end.
# Needs PostgreSQL at TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test) and Chromium (/usr/bin/chromium).
set -uo pipefail
cd "$(dirname "$0")/.."
export TEST_PG_URL="${TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test}"
logs="$(mktemp -d)"
failures=0
started=$SECONDS
timings=()

step() { printf '\n=== %s ===\n' "$1"; }

ensure_postgres() {
  if node -e "const p=require('postgres');const s=p(process.env.TEST_PG_URL,{connect_timeout:3,max:1});s\`select 1\`.then(()=>s.end()).then(()=>process.exit(0),()=>process.exit(1))" 2>/dev/null; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    echo "PostgreSQL is not answering; starting the local cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    sleep 2
    node -e "const p=require('postgres');const s=p(process.env.TEST_PG_URL,{connect_timeout:5,max:1});s\`select 1\`.then(()=>s.end()).then(()=>process.exit(0),()=>process.exit(1))" && return 0
  fi
  echo "ERROR: PostgreSQL is not reachable at $TEST_PG_URL. Start it, or set TEST_PG_URL to a server where user may create databases." >&2
  return 1
}

ensure_chromium() {
  export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
  [ -x "$CHROMIUM_PATH" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Chromium is missing; installing Debian's chromium package"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >"$logs/apt.log" 2>&1 || { tail -20 "$logs/apt.log"; }
    [ -x "$CHROMIUM_PATH" ] && return 0
  fi
  echo "ERROR: Chromium not found at $CHROMIUM_PATH. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH." >&2
  return 1
}

run_step() { # name, log file, command...
  local name="$1" log="$2"; shift 2
  step "$name"
  local t0=$SECONDS
  "$@" 2>&1 | tee "$logs/$log"
  local rc=${PIPESTATUS[0]}
  timings+=("$(printf '%-40s %4ds' "$name" $((SECONDS - t0)))")
  [ "$rc" = 0 ] || { echo "FAILED: $name (exit $rc)"; failures=$((failures + 1)); }
}

# A step beside another: "$@" in the background, its output in $logs/<log>, its exit code and seconds beside it
# (<log>.rc, <log>.s); finish_beside waits for it and prints it as a step of its own.
start_beside() { # log, command...
  local log="$1" t0=$SECONDS
  shift
  ("$@" >"$logs/$log" 2>&1; echo $? >"$logs/$log.rc"; echo $((SECONDS - t0)) >"$logs/$log.s") &
}
finish_beside() { # pid, step title, timing label, log
  wait "$1"
  step "$2"
  timings+=("$(printf '%-40s %4ds' "$3" "$(cat "$logs/$4.s")")")
  cat "$logs/$4"
  [ "$(cat "$logs/$4.rc")" = 0 ] || { echo "FAILED: $3 (exit $(cat "$logs/$4.rc"))"; failures=$((failures + 1)); }
}

scripts/ensure-quantlib.sh  # QuantLib for tests/unit/quantlib-reference.test.ts (skipped with a message if absent)
# Lint and typecheck side by side (each mostly one thread), their output printed one after the other.
step "lint (biome, layer rules) and typecheck, side by side"
t0=$SECONDS
start_beside lint.log npm run -s lint
# `npm run typecheck`: `next typegen`, then `tsc`, so the typecheck covers the route types a `next build` checks.
start_beside typecheck.log npm run -s typecheck
wait
timings+=("$(printf '%-40s %4ds' "lint and typecheck (side by side)" $((SECONDS - t0)))")
for s in lint typecheck; do
  printf -- '--- %s ---\n' "$s"
  rc=$(cat "$logs/$s.log.rc")
  if [ "$rc" = 0 ]; then tail -n 3 "$logs/$s.log"; else cat "$logs/$s.log"; echo "FAILED: $s (exit $rc)"; failures=$((failures + 1)); fi
done
# The unit suite's "npm run lint passes on the real tree" then need not lint the same tree again.
[ "$(cat "$logs/lint.log.rc")" = 0 ] && export LINT_PASSED=1
# The builds the suites start (the integration suite's, a launcher's when .next is stale) need not typecheck the app's
# sources again when this typecheck passed (next.config.ts).
[ "$(cat "$logs/typecheck.log.rc")" = 0 ] && export NEXT_BUILD_TYPECHECKED=1
ensure_postgres || exit 1
run_step "integration tests (PostgreSQL)" integration.log env TEST_PHASE=shared npx tsx scripts/run-node-tests.ts integration
# The unit suite beside the integration suite's database fault files, which run one at a time and mostly wait (a 10 s
# outage, a restart, a drain: about one core of two busy). At nice 19 it takes only what they leave, so their deadlines
# see the machine as before; its output is printed after theirs.
start_beside unit.log nice -n 19 npx tsx scripts/run-node-tests.ts unit
unit_pid=$!
run_step "integration: database fault files (unit tests beside)" integration-faults.log env TEST_PHASE=solo npx tsx scripts/run-node-tests.ts integration
finish_beside "$unit_pid" "unit tests (run beside the database fault files, at nice 19)" "unit tests (beside the fault files)" unit.log
# The integration suite built the app; should it be stale, one build here, not one in each launcher at once.
node --import tsx -e "import('./tests/helpers/next-server.ts').then((m) => m.ensureNextBuild())" || failures=$((failures + 1))
# The embedded smoke run beside the browser suite: both begin with one launcher seeding a demo market, each mostly one
# thread (side by side they keep the two cores busy); its output is printed after the browser suite's.
start_beside smoke.log npx tsx scripts/smoke-embedded.ts
smoke_pid=$!
if ensure_chromium; then
  run_step "end-to-end (Playwright, Chromium; the smoke run beside it)" e2e.log npx playwright test
else
  failures=$((failures + 1))
fi
finish_beside "$smoke_pid" "embedded smoke (npm start on PGlite), run beside the end-to-end step" "embedded smoke (beside end-to-end)" smoke.log

passed=$(cat "$logs"/unit.log "$logs"/integration.log "$logs"/integration-faults.log 2>/dev/null | sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' | awk '{s+=$1} END {print s+0}')
failed=$(cat "$logs"/unit.log "$logs"/integration.log "$logs"/integration-faults.log 2>/dev/null | sed -n 's/^ℹ fail \([0-9]*\)$/\1/p' | awk '{s+=$1} END {print s+0}')
e2e_passed=$(sed -n 's/^ *\([0-9][0-9]*\) passed.*/\1/p' "$logs/e2e.log" 2>/dev/null | tail -1)
e2e_failed=$(sed -n 's/^ *\([0-9][0-9]*\) failed.*/\1/p' "$logs/e2e.log" 2>/dev/null | tail -1)
smoke_ok=$(grep -c '^smoke: ok' "$logs/smoke.log" 2>/dev/null)
total_passed=$(( ${passed:-0} + ${e2e_passed:-0} + ${smoke_ok:-0} ))
total_failed=$(( ${failed:-0} + ${e2e_failed:-0} ))
[ "$failures" -gt 0 ] && [ "$total_failed" = 0 ] && total_failed=$failures
# The failing tests' names last, where a CI log's tail shows them (the spec reporter lists them after "failing tests:").
failing=$(cat "$logs"/unit.log "$logs"/integration.log "$logs"/integration-faults.log 2>/dev/null | awk '/^✖ failing tests:/ {on=1; next} on && /^test at / {loc=$3; getline; sub(/^ *✖ /, ""); print "  " loc " " $0}' | head -40)
e2e_failing=$(grep -E '^ +\[chromium\] › ' "$logs/e2e.log" 2>/dev/null | tail -40)
if [ -n "$failing$e2e_failing" ]; then
  echo
  echo "failing tests:"
  [ -n "$failing" ] && printf '%s\n' "$failing"
  [ -n "$e2e_failing" ] && printf '%s\n' "$e2e_failing"
fi
echo
printf '%s\n' "${timings[@]}"
elapsed=$((SECONDS - started))
echo "total time: $((elapsed / 60))m $((elapsed % 60))s (unit and integration: ${passed:-0} passed, ${failed:-0} failed; e2e: ${e2e_passed:-0} passed, ${e2e_failed:-0} failed; smoke: ${smoke_ok:-0})"
echo "steps failed: $failures"
echo "${total_passed} passed, ${total_failed} failed"
rm -rf "$logs"
[ "$failures" = 0 ]
