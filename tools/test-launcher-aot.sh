#!/usr/bin/env bash
# Checks the ./etw launcher's start-up (AOT) cache: made on first use, reused, never served after a rebuild,
# invisible in the command's output. Run from the repository root (CI: .ci/run). Needs JDK 25 (else it says so
# and checks only that the launcher still works). Leaves a valid cache behind.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "test-launcher-aot: FAIL: $*" >&2; exit 1; }
AOT=etw-cli/target/aot
SMALL=${ETW4J_SHARED:-../shared}/etl-corpus/perfview__smallEtlFile.etl

./etw guid x >/dev/null 2>&1 || fail "./etw guid does not run"   # builds when needed
. .mvn/select-jdk.sh >/dev/null 2>&1 || true
if [ "$(etw4j_java_feature "${JAVA_HOME:-/nonexistent}")" -lt 25 ]; then
    echo "test-launcher-aot: JDK < 25: no AOT cache; launcher runs"; exit 0
fi

# 1. first use: the cache is made, and stdout is only the command's own output. Commands that read no trace
# (guid, --version, help) have their own light cache (etw-light.aot), the others the full one (etw.aot).
rm -rf "$AOT"
out=$(ETW_AOT_TRACE=1 ./etw guid MyCompany-MyService 2>/tmp/etw-aot-err.$$)
[ "$out" = "$(ETW_AOT=0 ./etw guid MyCompany-MyService)" ] || fail "stdout differs with the cache: '$out'"
grep -q "preparing a start-up cache" /tmp/etw-aot-err.$$ || fail "no cache made on first use"
[ -f "$AOT/etw-light.aot" ] || fail "no $AOT/etw-light.aot"
[ -f "$AOT/etw.aot" ] && fail "guid made the full cache: $AOT/etw.aot"
out=$(ETW_AOT_TRACE=1 ./etw dump --help 2>/tmp/etw-aot-err.$$)
[ "$out" = "$(ETW_AOT=0 ./etw dump --help)" ] || fail "dump --help differs with the cache: '$out'"
grep -q "preparing a start-up cache" /tmp/etw-aot-err.$$ || fail "no full cache made on first use of dump"
grep -q "AOT cache .*/etw.aot" /tmp/etw-aot-err.$$ || fail "dump did not use the full cache: $(cat /tmp/etw-aot-err.$$)"

# 2. second use: reused, not made again; each command line with its cache
ETW_AOT_TRACE=1 ./etw guid x 2>/tmp/etw-aot-err.$$ >/dev/null
grep -q "preparing" /tmp/etw-aot-err.$$ && fail "cache made again although nothing changed"
grep -q "AOT cache .*/etw-light.aot" /tmp/etw-aot-err.$$ || fail "light cache not used by guid"
ETW_AOT_TRACE=1 ./etw --version 2>/tmp/etw-aot-err.$$ >/dev/null
grep -q "preparing" /tmp/etw-aot-err.$$ && fail "cache made again although nothing changed (--version)"
grep -q "AOT cache .*/etw-light.aot" /tmp/etw-aot-err.$$ || fail "light cache not used by --version"
ETW_AOT_TRACE=1 ./etw dump --help 2>/tmp/etw-aot-err.$$ >/dev/null
grep -q "preparing" /tmp/etw-aot-err.$$ && fail "full cache made again although nothing changed"
grep -q "AOT cache .*/etw.aot" /tmp/etw-aot-err.$$ || fail "full cache not used by dump"

# 3. a rebuilt jar (newer than the cache) is never run with the old cache: a new one is made first
sleep 1
touch etw-cli/target/lib/etw-consumer-*.jar
ETW_AOT_TRACE=1 ./etw guid x 2>/tmp/etw-aot-err.$$ >/dev/null
grep -q "preparing a start-up cache" /tmp/etw-aot-err.$$ || fail "stale cache used after a jar changed"
for j in etw-cli/target/etw-cli-*.jar etw-cli/target/lib/*.jar; do
    [ "$AOT/etw-light.aot" -nt "$j" ] || fail "cache not newer than $j"
done
ETW_AOT_TRACE=1 ./etw dump --help 2>/tmp/etw-aot-err.$$ >/dev/null
grep -q "preparing a start-up cache" /tmp/etw-aot-err.$$ || fail "stale full cache used after a jar changed"

# 4. other JVM options: not the cache made for these
ETW_JAVA_OPTS=-Xmx256m ETW_AOT_TRACE=1 ./etw guid x 2>/tmp/etw-aot-err.$$ >/dev/null
grep -q "preparing a start-up cache" /tmp/etw-aot-err.$$ || fail "cache of other JVM options used"
./etw guid x >/dev/null 2>&1   # back to the default options' cache

# 5. same output with and without the cache, on a real file
if [ -f "$SMALL" ]; then
    for fmt in text jsonl csv; do
        [ "$(./etw dump --format $fmt "$SMALL")" = "$(ETW_AOT=0 ./etw dump --format $fmt "$SMALL")" ] \
            || fail "dump --format $fmt differs with the cache"
    done
    [ "$(./etw summary "$SMALL")" = "$(ETW_AOT=0 ./etw summary "$SMALL")" ] || fail "summary differs"
fi
rm -f /tmp/etw-aot-err.$$
echo "test-launcher-aot: ok"
