#!/usr/bin/env bash
# Regenerates native-bindings/src/main/java/org/etw4j/nativebindings/generated from the Windows ETW headers.
#
# Needs: an installed jextract ($JEXTRACT, else `jextract` on PATH; built against libclang 14, see README.md)
# and the mingw-w64 headers (Debian: mingw-w64-x86-64-dev), found through $MINGW_INCLUDE or the usual
# Debian locations. Every input is a file beside this script:
#   etw4j-etw.h          the header wrapper jextract parses
#   compile_flags.txt    clang flags (Windows x64 target, Windows version, LLP64 spelling of long)
#   jextract.args        jextract options (package, header class name; deliberately no --library)
#   include/*.txt        include filters (--include-function/-struct/-union/-typedef/-constant)
# The output is post-processed so that the bindings describe Windows x64 whatever OS loads them (see
# postprocess below), then replaces the generated package wholesale. Nothing in it is edited by hand.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module="$(cd "$here/.." && pwd)"
package_dir="org/etw4j/nativebindings/generated"
target="$module/src/main/java/$package_dir"
header_class="EtwNative"

fail() { echo "regenerate.sh: $*" >&2; exit 1; }

jextract="${JEXTRACT:-$(command -v jextract || true)}"
[[ -n "$jextract" && -x "$jextract" ]] || fail "no jextract found: set JEXTRACT=/path/to/bin/jextract or put jextract on PATH.
  jextract is not in any package registry: build it from the openjdk/jextract sources (see $here/README.md)."

mingw_include="${MINGW_INCLUDE:-}"
if [[ -z "$mingw_include" ]]; then
  for candidate in /usr/x86_64-w64-mingw32/include /usr/share/mingw-w64/include; do
    if [[ -f "$candidate/evntrace.h" ]]; then mingw_include="$candidate"; break; fi
  done
fi
[[ -n "$mingw_include" && -f "$mingw_include/evntrace.h" ]] || fail "mingw-w64 headers not found (evntrace.h):
  install them (Debian: apt-get install mingw-w64-x86-64-dev) or set MINGW_INCLUDE=/path/to/mingw/include."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# jextract reads clang flags from ./compile_flags.txt (one per line) and adds the working directory to the
# include path, so it runs in a scratch directory holding the wrapper and the flags plus the include path.
cp "$here/etw4j-etw.h" "$work/"
{ cat "$here/compile_flags.txt"; echo "-isystem$mingw_include"; } > "$work/compile_flags.txt"

echo "regenerate.sh: $("$jextract" --version 2>&1 | tr '\n' ' ')"
(
  cd "$work"
  "$jextract" @"$here/jextract.args" \
    @"$here/include/functions.txt" @"$here/include/structs.txt" \
    @"$here/include/typedefs.txt" @"$here/include/constants.txt" \
    --output "$work/out" etw4j-etw.h
) > "$work/jextract.log" 2>&1 || { cat "$work/jextract.log" >&2; fail "jextract failed"; }
# Bit-field warnings are expected for structs left out of the filters; show the rest.
grep -v 'bitfields are not supported' "$work/jextract.log" || true

out="$work/out/$package_dir"
[[ -f "$out/$header_class.java" ]] || fail "jextract produced no $header_class.java"

# --- post-processing: make the bindings host-independent ------------------------------------------------
# jextract defines the C_* primitive layouts as the *host's* canonical layouts (Linker.canonicalLayouts()),
# so `long` would be 64 bits when loaded on Linux. The bindings describe Windows x64 (LLP64) on every OS:
# pin each one to the fixed Java layout with the Windows x64 size and alignment. C `long` never reaches the
# output (etw4j-etw.h spells it int), but C_LONG is pinned to 32 bits anyway and any use of it is refused.
shared="$out/$header_class\$shared.java"
[[ -f "$shared" ]] || fail "jextract produced no $header_class\$shared.java (output format changed?)"
sed -i -E \
  -e 's/\(ValueLayout\.OfBoolean\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("bool"\)/ValueLayout.JAVA_BOOLEAN/' \
  -e 's/\(ValueLayout\.OfByte\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("char"\)/ValueLayout.JAVA_BYTE/' \
  -e 's/\(ValueLayout\.OfShort\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("short"\)/ValueLayout.JAVA_SHORT/' \
  -e 's/\(ValueLayout\.OfInt\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("int"\)/ValueLayout.JAVA_INT/' \
  -e 's/\(ValueLayout\.OfLong\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("long long"\)/ValueLayout.JAVA_LONG/' \
  -e 's/\(ValueLayout\.OfFloat\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("float"\)/ValueLayout.JAVA_FLOAT/' \
  -e 's/\(ValueLayout\.OfDouble\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("double"\)/ValueLayout.JAVA_DOUBLE/' \
  -e 's/\(\(AddressLayout\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("void\*"\)\)/ValueLayout.ADDRESS/' \
  -e 's/ValueLayout\.OfLong C_LONG = \(ValueLayout\.OfLong\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("long"\)/ValueLayout.OfInt C_LONG = ValueLayout.JAVA_INT/' \
  -e 's/ValueLayout\.OfInt C_LONG = \(ValueLayout\.OfInt\) *Linker\.nativeLinker\(\)\.canonicalLayouts\(\)\.get\("long"\)/ValueLayout.OfInt C_LONG = ValueLayout.JAVA_INT/' \
  "$shared"
if grep -n 'canonicalLayouts' "$out"/*.java; then
  fail "host-dependent canonicalLayouts() left in the output above (jextract output format changed?)"
fi
grep -q 'ValueLayout.OfInt C_LONG = ValueLayout.JAVA_INT' "$shared" || fail "C_LONG was not pinned to 32 bits"
if grep -n '\bC_LONG\b' "$out"/*.java | grep -v 'OfInt C_LONG = ValueLayout.JAVA_INT'; then
  fail "C long reached the bindings (above): spell it through __LONG32 / int in etw4j-etw.h instead"
fi
# Symbols: without --library jextract resolves them through SymbolLookup.loaderLookup(), which only sees
# libraries a class loader opened with System.load/loadLibrary (tied to ONE class loader, and loadLibrary
# searches java.library.path). The bindings resolve through EtwSymbols instead: the libraries WindowsLibraries
# opened with SymbolLookup.libraryLookup, consulted at each lookup (issue 9, defect 3).
perl -0777 -pi -e 's/SymbolLookup\.loaderLookup\(\)\s*\.or\(Linker\.nativeLinker\(\)\.defaultLookup\(\)\)/org.etw4j.nativebindings.layout.EtwSymbols.lookup()/' \
  "$out/$header_class.java"
grep -q 'SYMBOL_LOOKUP = org.etw4j.nativebindings.layout.EtwSymbols.lookup();' "$out/$header_class.java" \
  || fail "the symbol lookup was not redirected to EtwSymbols (jextract output format changed?)"
if grep -n 'loaderLookup' "$out"/*.java; then
  fail "SymbolLookup.loaderLookup() left in the output above"
fi
# wchar_t: in C, clang types it for the Windows target as unsigned short (16 bits), which jextract emits as
# C_SHORT. A wchar_t seen as a distinct type would come out as bare padding: refuse it.
if grep -n 'wchar_t' "$out"/*.java | grep -v '^\S*:[0-9]*: *\*'; then
  fail "wchar_t reached the bindings outside comments"
fi

# Generated marker on every file, and a package-info documenting the package.
marker="// Generated by jextract from the Windows ETW headers (mingw-w64) by native-bindings/jextract/regenerate.sh. DO NOT EDIT."
for f in "$out"/*.java; do
  if head -n 1 "$f" | grep -q '^// Generated by jextract'; then
    sed -i "1s|.*|$marker|" "$f"
  else
    sed -i "1i $marker" "$f"
  fi
done
cat > "$out/package-info.java" <<EOF
$marker
/**
 * FFM bindings generated by jextract from evntprov.h, evntrace.h, evntcons.h and tdh.h for Windows x64.
 *
 * <p>Never edit these files: change the inputs in {@code native-bindings/jextract/} and run
 * {@code regenerate.sh}. Layouts are Windows x64 (LLP64) on every OS; symbols resolve lazily through
 * {@code EtwSymbols} (the libraries {@code WindowsLibraries} opened, by path, tied to no class loader), so the
 * Windows backend must open advapi32 and tdh before the first downcall. What jextract cannot express
 * (bit-fields, variable-length structures, function-like macros, functions missing from mingw-w64) is written
 * by hand in {@code org.etw4j.nativebindings.layout}.
 */
package org.etw4j.nativebindings.generated;
EOF

rm -rf "$target"
mkdir -p "$target"
cp "$out"/*.java "$target/"
echo "regenerate.sh: wrote $(ls "$target" | wc -l) files to ${target#"$module"/}"
