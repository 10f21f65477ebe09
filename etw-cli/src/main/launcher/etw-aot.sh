# etw4j: the etw command's start-up (AOT) cache, shared by the source tree's ./etw and the distribution's bin/etw
# (sourced by bash; defines functions only).
#
# An ahead-of-time cache (JDK 24+, JEP 483/514/515: classes loaded and linked, method profiles) made on first use and
# reused. AOT caches hold classes from jar files only. Never stale: a cache is used only when it is newer than every
# jar on the class path and than the JDK's release file and modules, and was made with the same JDK and JVM options
# (kept beside it in FILE.opts); a new jar makes the next run train a new cache. Checked with shell built-ins only (no
# process started: start-up is what this is for). The JVM itself also records each jar's size and time in the cache
# and ignores a cache that does not match, running without it. Training runs org.etw4j.cli.AotTraining (help, guid,
# a short record on the simulated backend, summary and dump of it; output discarded): a few seconds, said on stderr.
#
# Callers set: JAVA (the java binary), JAVA_HOME_FOUND (its JDK), JAVA_OPTS (array of JVM options).

# the cache's own messages (classes it cannot hold, a cache that does not match) are not the user's output
ETW_QUIET_AOT=(-Xlog:aot=off -Xlog:cds=off -Xlog:aot+class=off)

# $1 = the command's first argument; true when the command line reads no trace (the light cache serves it)
etw_aot_light() {
    case "${1:-}" in
        "" | -* | guid | help) return 0 ;;
        *) return 1 ;;
    esac
}

# $1 = cache file, the rest = the class path's jars; true when the cache exists, is newer than its inputs and was
# made with our JDK and JVM options
etw_aot_cache_fresh() {
    local cache="$1" f line=""
    shift
    [ -f "$cache" ] && [ -f "$cache.opts" ] || return 1
    for f in "$@" "$JAVA_HOME_FOUND/release" "$JAVA_HOME_FOUND/lib/modules"; do
        if [ -e "$f" ] && ! [ "$cache" -nt "$f" ]; then return 1; fi
    done
    IFS= read -r line <"$cache.opts" || true
    [ "$line" = "$JAVA_HOME_FOUND ${JAVA_OPTS[*]}" ]
}

# $1 = class path, $2 = cache file, $3 = the training's set (AotTraining's argument: full or light); returns
# non-zero when no cache could be made
etw_aot_make_cache() {
    local conf="$2.$$.conf" tmp="$2.$$.tmp" ok=1
    echo "etw: preparing a start-up cache (once, a few seconds)..." >&2
    rm -f "$2" "$2.opts"
    if "$JAVA" -XX:AOTMode=record -XX:AOTConfiguration="$conf" "${ETW_QUIET_AOT[@]}" "${JAVA_OPTS[@]}" \
            -cp "$1" org.etw4j.cli.AotTraining "$3" >/dev/null 2>&1 \
        && "$JAVA" -XX:AOTMode=create -XX:AOTConfiguration="$conf" -XX:AOTCache="$tmp" "${ETW_QUIET_AOT[@]}" \
            "${JAVA_OPTS[@]}" -cp "$1" >/dev/null 2>&1; then
        echo "$JAVA_HOME_FOUND ${JAVA_OPTS[*]}" >"$2.opts.$$" && mv -f "$2.opts.$$" "$2.opts"
        mv -f "$tmp" "$2" && ok=0
    fi
    rm -f "$conf" "$tmp" "$2.opts.$$"
    return $ok
}

# $1 = cache file (the full one; the light one is beside it), $2 = class path, $3 = main class, $4.. = the class
# path's jars (for the freshness check) then "--" then the command's arguments. Makes the cache when needed (one
# process at a time: several first runs wait for one training) and execs java with it; returns (without exec)
# when no cache could be made.
etw_aot_exec() {
    local cache="$1" cp="$2" main="$3" jars=() training=full
    shift 3
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do jars+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    if etw_aot_light "${1:-}"; then
        cache="${cache%.aot}-light.aot"
        training=light
    fi
    if ! etw_aot_cache_fresh "$cache" "${jars[@]}"; then
        mkdir -p "$(dirname "$cache")" 2>/dev/null && [ -w "$(dirname "$cache")" ] || return 0
        if command -v flock >/dev/null 2>&1; then
            exec 8>"$cache.lock"
            flock 8
            etw_aot_cache_fresh "$cache" "${jars[@]}" || etw_aot_make_cache "$cp" "$cache" "$training" || true
            flock -u 8
            exec 8>&-
        else
            etw_aot_make_cache "$cp" "$cache" "$training" || true
        fi
    fi
    if etw_aot_cache_fresh "$cache" "${jars[@]}"; then
        [ "${ETW_AOT_TRACE:-0}" = "1" ] && echo "etw: AOT cache $cache" >&2
        exec "$JAVA" -XX:AOTCache="$cache" "${ETW_QUIET_AOT[@]}" "${JAVA_OPTS[@]}" -cp "$cp" "$main" "$@"
    fi
    [ "${ETW_AOT_TRACE:-0}" = "1" ] && echo "etw: no AOT cache (training failed)" >&2
    return 0
}
