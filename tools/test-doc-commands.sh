#!/usr/bin/env bash
# Issue 24 (documentation that cannot rot): runs the shell commands README.md and docs/*.md show, where they can run
# here, each from a fresh temporary folder (so example outputs never land in the repository), and fails on the first
# non-zero exit status. Stand-ins: `trace.etl` is ../shared's perfview__net.4.5.2.x64.etl, `ClrEtwAll.man` is
# ../shared/manifests/ClrEtwAll.man; `./etw` is this tree's launcher, a bare `etw` (docs/cli.md) the unpacked
# distribution's bin/etw. Every ```bash line is either run or named below with the reason it is not; a new line that
# is neither fails the test. Run from the repository root (CI: .ci/run, after tools/test-cli-dist.sh unpacked the
# distribution into target/test-cli-dist).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
fail() { echo "test-doc-commands: FAIL: $*" >&2; exit 1; }
SHARED=$(cd "${ETW4J_SHARED:-$ROOT/../shared}" && pwd)
TRACE="$SHARED/etl-corpus/perfview__net.4.5.2.x64.etl"
MAN="$SHARED/manifests/ClrEtwAll.man"
[ -f "$TRACE" ] && [ -f "$MAN" ] || fail "../shared is missing ($TRACE, $MAN)"
DIST=$(ls -d "$ROOT"/target/test-cli-dist/tgz/etw4j-cli-*/ 2>/dev/null | head -n 1 || true)
[ -n "$DIST" ] || { bash tools/test-cli-dist.sh >/dev/null; DIST=$(ls -d "$ROOT"/target/test-cli-dist/tgz/etw4j-cli-*/ | head -n 1); }

# Not run here, each with why (matched against the start of the line):
not_run() {
    case "$1" in
        "./mvnw verify"*) echo "the whole build: CI runs it (.ci/run)" ;;
        "JAZZER_FUZZ=1"*|"-Dtest=EtlReaderFuzzTest"*) echo "a 2-hour fuzzing campaign" ;;
        "./mvnw -B -pl etw-fuzz"*|"-Detw4j.fuzz.seed=0"*) echo "a 1-hour random-seed fuzzing run" ;;
        "java -javaagent:"*|"-Dotel."*|"-jar my-service.jar"*) echo "the user's own app.jar/my-service.jar (OtelJavaAgentIT, JfrAgentTest run the agents)" ;;
        "./mvnw -B -ntp -pl etw-report"*) echo "etw-report's test, run by ./mvnw verify" ;;
        "./mvnw -B -q -pl etw-spark"*|"-Dfleet.input="*|"spark-submit"*|"etw-spark/target/"*) echo "Spark jobs: etw-spark's tests run the data source; spark-submit is not installed" ;;
        "./mvnw -pl native-bindings"*) echo "RealEtwTest needs Windows (the Windows workflow runs it)" ;;
        "etw profile / etw timeline"*) echo "names two commands, not a command line" ;;
        "mkdir -p target/etw-examples"*) echo "made in every command's own folder below, before the command runs" ;;
        "./etw demo"*|"etw demo"*) echo "" ;;   # run below
        *) return 1 ;;
    esac
}

ran=0
skipped=0
seen=""
while IFS=$'\t' read -r where line; do
    cmd="${line%%#*}"                       # the comment after the command
    cmd="$(printf '%s' "$cmd" | sed 's/^[[:space:]]*//; s/[[:space:]]*\\\?[[:space:]]*$//')"
    [ -n "$cmd" ] || continue
    if reason=$(not_run "$cmd") && [ -n "$reason" ]; then
        skipped=$((skipped + 1))
        continue
    fi
    case "$cmd" in
        ./etw\ *|etw\ *) ;;
        *) fail "$where: '$cmd' is neither run nor named in tools/test-doc-commands.sh" ;;
    esac
    # the same command shown twice (README.md's ./etw, docs/cli.md's etw) runs once, with the first launcher
    key="${cmd#./}"
    case " $seen " in *" [$key] "*) continue ;; esac
    seen="$seen [$key]"
    run="$cmd"
    case "$run" in
        # every ./etw of the line (a record then the profile of what it wrote is one line, run in one folder)
        ./etw\ *) run="${run//.\/etw /$ROOT/etw }" ;;
        etw\ *) run="$DIST/bin/etw ${run#etw }" ;;
    esac
    run="${run//..\/shared/$SHARED}"
    run="$(printf '%s' "$run" | sed "s# trace.etl# $TRACE#g; s# ClrEtwAll.man# $MAN#g")"
    dir=$(mktemp -d "$ROOT/target/doc-command.XXXXXX")
    # The examples write into target/ (docs/cli.md starts with mkdir -p target/etw-examples; a built tree has it).
    mkdir -p "$dir/target/etw-examples"
    # shellcheck disable=SC2086 # the documented command line, split as the shell would
    (cd "$dir" && ETW_JAVA_OPTS=-Detw4j.backend=simulated eval "$run" </dev/null >"$dir.out" 2>&1) \
        || { tail -20 "$dir.out" >&2; fail "$where: '$cmd' exits non-zero"; }
    rm -rf "$dir" "$dir.out"
    ran=$((ran + 1))
done < <(for f in README.md docs/*.md; do
    awk -v F="$f" '/^```(bash|sh|shell)[[:space:]]*$/{p=1;next}/^```/{p=0}p{print F ":" NR "\t" $0}' "$f"
done)
[ "$ran" -ge 8 ] || fail "only $ran commands ran"
echo "test-doc-commands: ok ($ran command lines run, $skipped named as not runnable here)"
