#!/usr/bin/env bash
# Issue 24: the etw command line distribution works where a user unpacks it. Builds etw-cli-dist when its archives
# are missing, unpacks the tar.gz and the zip into target/ (outside the source tree's reach: run from another
# folder, with the repository's ./etw not on PATH) and checks:
#   1. the layout (bin/etw executable, bin/etw.cmd with CRLF, lib/ with etw-cli and its dependencies, CLI.md,
#      LICENSE, NOTICE) and that the zip holds the same files as the tar.gz;
#   2. `etw --version`, `etw summary` and `etw dump` run from the unpacked folder and print what the source tree's
#      ./etw prints (same code, so byte for byte; --version says the version, not "development build");
#   3. the launcher finds a JDK 22+ when JAVA_HOME is an older one (JDK 17 here), and through a symlink;
#   4. the start-up cache (JDK 25): made on first use in the distribution's cache/, reused, in ETW_CACHE_DIR when
#      set, and in $XDG_CACHE_HOME/etw4j/ when the distribution folder is read-only (not checked as root, for whom
#      no folder is read-only);
#   5. bin/etw.cmd passes tools/lint-cmd.py (cmd.exe itself runs it in .github/workflows/windows.yml).
# Run from the repository root (CI: .ci/run). Needs ../shared's small .etl file (skips 2's file commands without it
# unless CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
fail() { echo "test-cli-dist: FAIL: $*" >&2; exit 1; }
SHARED=${ETW4J_SHARED:-$ROOT/../shared}
SMALL="$SHARED/etl-corpus/perfview__smallEtlFile.etl"

tgz=$(ls etw-cli-dist/target/etw4j-cli-*.tar.gz 2>/dev/null | head -n 1 || true)
if [ -z "$tgz" ]; then
    ./mvnw -B -q -ntp -pl etw-cli-dist -am package -DskipTests -Dmaven.javadoc.skip >/dev/null
    tgz=$(ls etw-cli-dist/target/etw4j-cli-*.tar.gz | head -n 1)
fi
zip="${tgz%.tar.gz}.zip"
name=$(basename "${tgz%.tar.gz}")
version=${name#etw4j-cli-}
work="$ROOT/target/test-cli-dist"
rm -rf "$work"
mkdir -p "$work/tgz" "$work/zip" "$work/elsewhere" "$work/xdg"
tar xzf "$tgz" -C "$work/tgz"
unzip -q "$zip" -d "$work/zip"
DIST="$work/tgz/$name"

# 1. layout
[ -x "$DIST/bin/etw" ] || fail "bin/etw missing or not executable"
[ -f "$DIST/bin/etw.cmd" ] || fail "bin/etw.cmd missing"
[ "$(grep -c $'\r$' "$DIST/bin/etw.cmd")" = "$(wc -l <"$DIST/bin/etw.cmd")" ] || fail "bin/etw.cmd has lines without CRLF"
grep -q $'\r' "$DIST/bin/etw" && fail "bin/etw has CR characters"
for f in CLI.md LICENSE NOTICE lib/launcher/select-jdk.sh lib/launcher/etw-aot.sh "lib/etw-cli-$version.jar" \
         "lib/etw-consumer-$version.jar" "lib/etw-api-$version.jar" "lib/etw-native-bindings-$version.jar"; do
    [ -f "$DIST/$f" ] || fail "$f missing"
done
ls "$DIST"/lib/etw-picocli-*.jar >/dev/null 2>&1 || fail "picocli (etw-picocli, rebuilt for the start-up cache) missing from lib/"
[ -x "$work/zip/$name/bin/etw" ] || fail "bin/etw in the zip is not executable"
diff <(cd "$work/tgz" && find . -type f | sort) <(cd "$work/zip" && find . -type f | sort) >/dev/null \
    || fail "the zip and the tar.gz hold different files"

# 2. the commands, from another folder, with a PATH without the repository
run() { (cd "$work/elsewhere" && env PATH=/usr/bin:/bin ETW_AOT_TRACE=1 "$@"); }
out=$(run "$DIST/bin/etw" --version 2>"$work/err") || fail "etw --version failed: $(cat "$work/err")"
printf '%s\n' "$out" | grep -qx "etw4j $version" || fail "etw --version says '$out', not 'etw4j $version'"
if [ -f "$SMALL" ]; then
    for cmd in "summary" "summary --json" "dump" "dump --format jsonl"; do
        # shellcheck disable=SC2086 # cmd is a command and its options
        got=$(run "$DIST/bin/etw" $cmd "$SMALL" 2>/dev/null) || fail "etw $cmd failed"
        # shellcheck disable=SC2086
        want=$(ETW_AOT=0 ./etw $cmd "$SMALL" 2>/dev/null)
        [ -n "$got" ] && [ "$got" = "$want" ] || fail "etw $cmd prints other output than ./etw $cmd"
    done
elif [ "${CI:-}" = "true" ]; then
    fail "$SMALL missing"
else
    echo "test-cli-dist: $SMALL missing: summary and dump not run (set ETW4J_SHARED)"
fi

# 3. JDK discovery: an older JAVA_HOME is passed over for a new enough JDK; a symlink to bin/etw works
old=""
for d in /usr/lib/jvm/*17* /usr/lib/jvm/*21*; do [ -x "$d/bin/java" ] && old="$d" && break; done
if [ -n "$old" ]; then
    run env JAVA_HOME="$old" "$DIST/bin/etw" --version 2>/dev/null | grep -q "^Java 2[2-9]\|^Java [3-9][0-9]" \
        || fail "with JAVA_HOME=$old (too old) the launcher did not find a JDK 22+"
fi
ln -s "$DIST/bin/etw" "$work/elsewhere/etw-link"
run "$work/elsewhere/etw-link" --version 2>/dev/null | grep -qx "etw4j $version" || fail "etw started through a symlink failed"

# 4. start-up cache
. .mvn/select-jdk.sh >/dev/null 2>&1 || true
if [ "$(etw4j_java_feature "${JAVA_HOME:-/nonexistent}")" -ge 25 ]; then
    # --version has the light cache (commands that read no trace), summary and dump the full one
    [ -f "$DIST/cache/etw-light.aot" ] || fail "no start-up cache in $DIST/cache after the first run"
    run "$DIST/bin/etw" --version 2>"$work/err" >/dev/null
    grep -q "preparing" "$work/err" && fail "the cache was made again although nothing changed"
    grep -q "AOT cache $DIST/cache/etw-light.aot" "$work/err" || fail "the cache was not used: $(cat "$work/err")"
    if [ -f "$SMALL" ]; then
        [ -f "$DIST/cache/etw.aot" ] || fail "no full start-up cache in $DIST/cache after summary and dump"
        run "$DIST/bin/etw" summary "$SMALL" 2>"$work/err" >/dev/null
        grep -q "AOT cache $DIST/cache/etw.aot" "$work/err" || fail "summary did not use the full cache: $(cat "$work/err")"
    fi
    RO="$work/zip/$name"
    if [ "$(id -u)" != 0 ]; then   # root writes to read-only folders: checked only for other users
        chmod -R a-w "$RO"
        out=$(run env XDG_CACHE_HOME="$work/xdg" "$RO/bin/etw" --version 2>"$work/err") || { chmod -R u+w "$RO"; fail "read-only distribution: etw failed"; }
        chmod -R u+w "$RO"
        printf '%s\n' "$out" | grep -qx "etw4j $version" || fail "read-only distribution: wrong --version output"
        ls "$work"/xdg/etw4j/*/etw-light.aot >/dev/null 2>&1 || fail "read-only distribution: no cache under XDG_CACHE_HOME"
        [ -e "$RO/cache" ] && fail "read-only distribution: a cache folder appeared in it"
    fi
    run env ETW_CACHE_DIR="$work/xdg/chosen" "$RO/bin/etw" --version >/dev/null 2>&1 || fail "ETW_CACHE_DIR: etw failed"
    [ -f "$work/xdg/chosen/etw-light.aot" ] || fail "ETW_CACHE_DIR: no cache there"
else
    echo "test-cli-dist: JDK < 25: no start-up cache to check"
fi

# 5. the Windows launcher
python3 tools/lint-cmd.py "$DIST/bin/etw.cmd" >/dev/null || fail "bin/etw.cmd: $(python3 tools/lint-cmd.py "$DIST/bin/etw.cmd" 2>&1)"
echo "test-cli-dist: ok ($name: layout, --version, summary, dump, JDK discovery, symlink, start-up cache, etw.cmd lint)"
