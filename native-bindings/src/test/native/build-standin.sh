#!/bin/sh
# Builds the ETW stand-in library for tests: build-standin.sh OUTPUT_DIR
#
# Output: OUTPUT_DIR/libetw_standin.so (gcc, Linux). Called by the test build of every module whose tests run a
# backend's native path against the stand-in (etw-jna; the FFM backend later), so the rules live here once:
#   - gcc missing: prints why and exits 0 (the tests that need the library then skip), unless CI=true, where a
#     missing compiler is a broken setup and the build fails;
#   - x86_64-w64-mingw32-gcc present: also checks the stand-in's Windows layouts against the mingw-w64 headers
#     (abi_check_windows.c, compile only); absent: that check is skipped with a message (CI: fails).
# Environment: CC (default gcc), ETW4J_MINGW_GCC (default x86_64-w64-mingw32-gcc).
set -eu

out=${1:?usage: build-standin.sh OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}
mingw=${ETW4J_MINGW_GCC:-x86_64-w64-mingw32-gcc}
ci=${CI:-false}

missing() {
    if [ "$ci" = "true" ]; then
        echo "[etw-standin] ERROR: $1; CI=true, so this fails the build instead of skipping tests" >&2
        exit 1
    fi
    echo "[etw-standin] WARNING: $1"
}

if ! command -v "$cc" >/dev/null 2>&1; then
    missing "$cc not found: libetw_standin.so is not built and the tests that need it are skipped"
    exit 0
fi

if command -v "$mingw" >/dev/null 2>&1; then
    "$mingw" -D_WIN32_WINNT=0x0A00 -DWINVER=0x0A00 -std=c11 -fsyntax-only -Wall -Wextra -Werror \
        -I"$here" "$here/abi_check_windows.c"
else
    missing "$mingw not found: the stand-in's Windows layouts are not checked against the mingw-w64 headers"
fi

mkdir -p "$out"
# Every etw_standin*.c goes into the one library: etw_standin.c (the forwarders) and the helpers other tests
# add next to it (etw_standin_trace.c: OpenTraceW with a last error, for the FFM backend's consumer tests;
# etw_standin_callbacks.c: EventUnregister waiting for enable callbacks in flight, with -pthread;
# etw_standin_token.c: the token functions that enable SeSystemProfilePrivilege).
"$cc" -std=c11 -O2 -g -fPIC -shared -pthread -fvisibility=hidden -Wall -Wextra -Werror \
    -o "$out/libetw_standin.so.tmp" "$here"/etw_standin*.c
mv -f "$out/libetw_standin.so.tmp" "$out/libetw_standin.so"
echo "[etw-standin] built $out/libetw_standin.so"
