#!/usr/bin/env bash
# The figures of the README's "Architecture: one read path" section (issue 19), re-made from the sources of the
# working tree. Run from anywhere:   tools/api-counts.sh
# Nothing is built or run: module descriptors and .java files are read as text (bash, grep, awk; python3 for the
# one count that must ignore comments and string literals, as etw-consumer's OneReadPathTest does).
#
# What each count means:
#   exported packages   `exports p;` lines of a module's module-info.java (without `to`: exported to everyone);
#                       qualified exports (`exports p to m, ...;`) are counted apart.
#   public types        files of an exported package's own directory (sub-packages not included) with a line that
#                       starts `public ` (a top-level public type; nested types are indented), package-info aside.
#   EventStream family  the stream files of org.etw4j.consumer (names with "Stream", and EventHandler), by lines.
#   own read paths      main-code files that walk .etl records or call the decoder themselves, by the patterns of
#                       OneReadPathTest; listed per module, and how many pipeline exceptions that test names.
#   merge/adapter       main-code files that build a merge cursor or a record adapter (`new MergingCursor(`,
#                       `EtlMergedCursor.of(`, `EtlFile.merge(`, `new EtlRecordEvent(`; a class making itself
#                       aside): the file read loops (the issue's "7", which it counted by hand on main 0bffe3d).
set -euo pipefail
cd "$(dirname "$0")/.."

modules() {
    for d in */; do
        d=${d%/}
        [[ -f "$d/pom.xml" && -f "$d/src/main/java/module-info.java" ]] && echo "$d"
    done
}

unqualified_exports() { # module -> packages exported to everyone, one a line
    sed -nE 's/^[[:space:]]*exports[[:space:]]+([A-Za-z0-9_.]+)[[:space:]]*;.*/\1/p' "$1/src/main/java/module-info.java"
}

qualified_exports() { # module -> count of `exports p to ...` (one statement may span lines)
    grep -cE '^[[:space:]]*exports[[:space:]]+[A-Za-z0-9_.]+[[:space:]]+to([[:space:]]|$)' "$1/src/main/java/module-info.java" || true
}

public_types() { # module package -> count
    local dir="$1/src/main/java/${2//.//}"
    local n=0 f
    for f in "$dir"/*.java; do
        [[ -f "$f" && "$(basename "$f")" != package-info.java ]] || continue
        grep -qE '^public ' "$f" && n=$((n + 1))
    done
    echo "$n"
}

echo "== exported packages per module (unqualified exports; qualified apart)"
printf '%-20s %10s %10s  %s\n' module everyone qualified packages
for m in $(modules); do
    pk=$(unqualified_exports "$m" | tr '\n' ' ')
    printf '%-20s %10d %10d  %s\n' "$m" "$(unqualified_exports "$m" | grep -c . || true)" "$(qualified_exports "$m")" "$pk"
done

for m in etw-consumer etw-api; do
    echo
    echo "== public top-level types per exported package: $m"
    total=0
    for p in $(unqualified_exports "$m"); do
        n=$(public_types "$m" "$p")
        total=$((total + n))
        printf '  %-36s %4d\n' "$p" "$n"
    done
    printf '  %-36s %4d\n' "total" "$total"
done
internal_dir=etw-consumer/src/main/java/org/etw4j/consumer/internal
if [[ -d "$internal_dir" ]]; then
    internal=$(grep -rlE '^public ' "$internal_dir" --include='*.java' | grep -vc package-info.java || true)
    echo "  (etw-consumer's unexported org.etw4j.consumer.internal..., all sub-packages: $internal public types)"
fi

echo
echo "== EventStream family (etw-consumer, org.etw4j.consumer), lines"
root=etw-consumer/src/main/java/org/etw4j/consumer
ls "$root" | grep -E 'Stream.*\.java$|^EventHandler\.java$' | while read -r f; do wc -l < "$root/$f" | awk -v f="$f" '{printf "  %-32s %5d\n", f, $1}'; done | sort -k2 -nr
ls "$root" | grep -E 'Stream.*\.java$|^EventHandler\.java$' | while read -r f; do wc -l < "$root/$f"; done \
    | sort -nr | head -1 | awk '{printf "  largest: %d lines (goal: under 250)\n", $1}'

echo
echo "== EventDecoder.decode"
dec=$(find etw-consumer/src/main/java -name EventDecoder.java | head -1)
if [[ -n "$dec" ]]; then
    echo "  $dec"
    providers=$(grep -cE '^[[:space:]]*c\.add\(' "$dec" || true)
    loops=$(grep -cE 'for \(SchemaProvider [a-z]+ : ' "$dec" || true)
    echo "  schema providers in the chain: $providers; loops over the chain in decode: $loops"
else
    echo "  EventDecoder.java not found"
fi

echo
echo "== own read paths in main code (OneReadPathTest's patterns, comments and strings left out)"
python3 - <<'EOF'
import os, re
LOOP = re.compile(r"\.cursor\(|EtlFile\.merge\(|\bMergingCursor\b|\bFilePass\b|\bnew EtlRecordEvent\b|\bfirstPass\(")
DECODER = re.compile(r"\b(?:EventDecoder|EventView)\b")
DECODE_CALL = re.compile(r"\.decode\(")
BUILD = re.compile(r"new MergingCursor\(|EtlMergedCursor\.of\(|EtlFile\.merge\(|new EtlRecordEvent\(")

def code(s):
    """The source without comments, string and character literals (as OneReadPathTest.code)."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if s.startswith("//", i):
            j = s.find("\n", i); i = n if j < 0 else j
        elif s.startswith("/*", i):
            j = s.find("*/", i + 2); i = n if j < 0 else j + 2; out.append(" ")
        elif s.startswith('"""', i):
            j = s.find('"""', i + 3); i = n if j < 0 else j + 3; out.append('""')
        elif c in "\"'":
            i += 1
            while i < n and s[i] != c and s[i] != "\n":
                i += 2 if s[i] == "\\" else 1
            i += 1; out.append(c + c)
        else:
            out.append(c); i += 1
    return "".join(out)

own, builds = {}, []
for m in sorted(os.listdir(".")):
    src = os.path.join(m, "src", "main", "java")
    if not (os.path.isfile(os.path.join(m, "pom.xml")) and os.path.isdir(src)):
        continue
    for d, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".java"):
                continue
            p = os.path.join(d, f)
            s = code(open(p, encoding="utf-8").read())
            if LOOP.search(s) or (DECODER.search(s) and DECODE_CALL.search(s)):
                own.setdefault(m, []).append(p)
            own_class = f[:-len(".java")]
            if any(x.group() not in (f"new {own_class}(",) for x in BUILD.finditer(s)):
                builds.append(p)  # a class's own factory (MergingCursor.java making a MergingCursor) is no loop
for m, ps in own.items():
    print(f"  {m}: {len(ps)}")
    for p in ps:
        print(f"    {p}")
outside = sum(len(ps) for m, ps in own.items() if m not in ("etw-consumer", "benchmarks"))
print(f"  outside etw-consumer and the benchmarks: {outside}")
test = "etw-consumer/src/test/java/org/etw4j/consumer/architecture/OneReadPathTest.java"
if os.path.isfile(test):
    body = open(test, encoding="utf-8").read()
    start = body.find("PIPELINE = Map.ofEntries(")
    end = body.find(");", body.find('"));', start)) if start >= 0 else -1
    print(f"  pipeline exceptions named in OneReadPathTest: {body[start:end].count('Map.entry(') if start >= 0 else '?'}")
print()
print("== main files that build a merge cursor or a record adapter (new MergingCursor( / EtlMergedCursor.of( /"
      " EtlFile.merge( / new EtlRecordEvent()")
for p in builds:
    print(f"  {p}")
print(f"  total: {len(builds)}; without the benchmarks: {sum(1 for p in builds if not p.startswith('benchmarks/'))}")
EOF
