#!/usr/bin/env bash
# Cross-checks etw4j's .etl reader and writer against an independent parser, fox-it's dissect.etl (Apache-2.0).
# Not part of CI: dissect.etl is on PyPI only, which the build machines cannot reach. A maintainer runs it by hand:
#
#   DISSECT=/path/with/dissect.etl:/path/with/dissect.cstruct-4.x:/path/with/dissect.util-3.x \
#       tools/crosscheck-dissect/run.sh FILE.etl...
#
# (pip install "dissect.etl" provides all three; then DISSECT can be empty.) Needs python3 with defusedxml
# (Debian: python3-defusedxml) and a built tree (./mvnw -pl etw-consumer -am install -DskipTests).
# For each file it prints both parsers' per-record facts side by side and fails on any difference.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=/dev/null
source "$root/.mvn/select-jdk.sh"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
cp="$root/etw-consumer/target/classes:$root/etw-api/target/classes"
python="${PYTHON:-/usr/bin/python3}"
status=0
for f in "$@"; do
    ours="$(mktemp)"; theirs="$(mktemp)"
    "$java_bin" -cp "$cp" "$here/EtlRecordFacts.java" "$f" > "$ours"
    PYTHONPATH="${DISSECT:-}" "$python" "$here/dissect_facts.py" "$f" > "$theirs"
    echo "$f: $("$python" "$here/compare.py" "$ours" "$theirs" | tail -1)" || true
    "$python" "$here/compare.py" "$ours" "$theirs" > /dev/null || status=1
    rm -f "$ours" "$theirs"
done
exit $status
