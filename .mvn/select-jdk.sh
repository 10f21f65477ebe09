# etw4j: choose the JDK that runs Maven itself and the ./etw launcher (sourced by ./mvnw and ./etw; POSIX sh).
#
# The build compiles and tests with JDK 25 through maven-toolchains-plugin's discovery, but a few plugins run
# inside Maven's own JVM (maven-jar-plugin calls that JDK's `jar` tool on module-info.class files of release
# 22+), so Maven must not run on an older JDK either. When JAVA_HOME (or the java on PATH) is older than
# ETW4J_MIN_JDK (default 22), this exports JAVA_HOME as the newest installed JDK that is new enough, from the
# usual places; a user sets nothing. JAVA_HOME is left unset when none is found (the caller reports it).
etw4j_java_feature() { # prints the feature version of the JDK at $1 (e.g. 25), or 0
  v=""
  if [ -f "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9.]*\).*/\1/p' "$1/release" 2>/dev/null | head -n 1)
  fi
  case "$v" in
    1.*) v=${v#1.}; v=${v%%.*} ;;
    *) v=${v%%.*} ;;
  esac
  echo "${v:-0}"
}
etw4j_select_jdk() {
  need="${ETW4J_MIN_JDK:-22}"
  current="${JAVA_HOME-}"
  if [ -z "$current" ] && command -v java >/dev/null 2>&1; then
    current=$(dirname "$(dirname "$(readlink -f "$(command -v java)" 2>/dev/null || command -v java)")")
  fi
  if [ -n "$current" ] && [ "$(etw4j_java_feature "$current")" -ge "$need" ]; then
    export JAVA_HOME="$current"
    return 0
  fi
  best=""
  best_v=0
  set +f
  for d in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "$HOME"/.jdks/* "$HOME"/.sdkman/candidates/java/* \
           /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -x "$d/bin/javac" ] || continue
    v=$(etw4j_java_feature "$d")
    if [ "$v" -ge "$need" ] && [ "$v" -gt "$best_v" ]; then
      best="$d"
      best_v="$v"
    fi
  done
  if [ -n "$best" ]; then
    export JAVA_HOME="$best"
  else
    unset JAVA_HOME
    echo "etw4j: no JDK $need or newer found (looked at JAVA_HOME, the java on PATH, /usr/lib/jvm, /usr/java, /opt," \
         "~/.jdks, ~/.sdkman, /Library/Java); install one, e.g. Temurin 25" >&2
  fi
}
etw4j_select_jdk
# Maven's own libraries (jansi, guice) use restricted methods and sun.misc.Unsafe: silence the JDK's warnings.
if [ -n "${JAVA_HOME-}" ] && [ "$(etw4j_java_feature "$JAVA_HOME")" -ge 24 ]; then
  case " ${MAVEN_OPTS-} " in
    *enable-native-access*) ;;
    *) export MAVEN_OPTS="${MAVEN_OPTS-} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow" ;;
  esac
fi
