#!/usr/bin/env bash
# Issues 24 and 25: etw4j as users get it, in small separate builds. Run from the repository root (CI: .ci/run).
#   1. `./mvnw deploy` into a file repository under target/ (-DaltDeploymentRepository, the way any repository
#      manager is reached; the release profile is off) and checks what was published: every artifact etw4j-bom
#      lists, each with its pom, jar, -sources and -javadoc jars (etw-opentelemetry-javaagent: the extension jar
#      only; etw-cli-dist: zip and tar.gz), nothing it does not list (but the parent and the BOM), and none of
#      samples, benchmarks, etw-fuzz.
#   2. tools/user-projects/junit: a user's project importing etw4j-bom and testing its events with etw-junit under
#      JUnit 5.10.5 (Spring Boot 3.2/3.3), 5.11.4 (3.4), 5.12.2 (3.5) and 5.13.4 (the project's own): the @EtwTest
#      and a plain test both pass, and the test checks that the JUnit it runs on is the version asked for.
#   3. tools/user-projects/java17: a Java 17 service built and tested on JDK 17 with etw-api, and etw-consumer and
#      etw-native-bindings on its class path.
# The user builds read etw4j from that file repository only: their local repository is target/user-projects/repo,
# ~/.m2/repository's folders linked in but org/etw4j; nothing is installed into ~/.m2, and the script checks that
# etw4j's jars came from the file repository; the deploy build itself skips install and has a private local repository as well. Set
# ETW4J_SKIP_DEPLOY=1 to reuse the repository of a previous run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
fail() { echo "test-user-projects: FAIL: $*" >&2; exit 1; }
VERSION=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n 1)
WORK="$ROOT/target/user-projects"
REPO="$WORK/published"
LOCAL="$WORK/repo"
MVN_USER=(-B -q -ntp "-Dmaven.repo.local=$LOCAL" "-Detw4j.repo=file://$REPO" "-Detw4j.version=$VERSION")

# 1. deploy and check
mkdir -p "$WORK"
if [ "${ETW4J_SKIP_DEPLOY:-0}" != "1" ]; then
    rm -rf "$REPO"
    # `deploy` runs `install` first: skipped, and the build's own local repository is private too (deploy caches
    # the target repository's metadata there), so ~/.m2 is only read.
    ./mvnw -B -q -ntp deploy -DskipTests -Dmaven.install.skip=true -DaltDeploymentRepository="test::file://$REPO" \
        "-Dmaven.repo.local=$WORK/build-repo" "-Dmaven.repo.local.tail=$HOME/.m2/repository" >"$WORK.deploy.log" 2>&1 \
        || { tail -50 "$WORK.deploy.log" >&2; fail "mvn deploy failed (log: $WORK.deploy.log)"; }
fi
G="$REPO/org/etw4j"
listed=$(sed -n 's:.*<artifactId>\(etw[^<]*\)</artifactId>.*:\1:p' etw4j-bom/pom.xml | grep -v '^etw4j-bom$' | sort -u)
for a in $listed; do
    d="$G/$a/$VERSION"
    [ -d "$d" ] || fail "$a is in etw4j-bom but was not deployed"
    ls "$d"/"$a"-*.pom >/dev/null 2>&1 || fail "$a: no pom deployed"
    jars=$(ls "$d"/"$a"-*.jar 2>/dev/null | grep -v -- '-sources.jar$\|-javadoc.jar$\|-tests.jar$\|-agent.jar$\|-bundle.jar$' || true)
    [ -n "$jars" ] || fail "$a: no jar deployed"
    if [ "$a" != etw-opentelemetry-javaagent ]; then
        ls "$d"/"$a"-*-sources.jar >/dev/null 2>&1 || fail "$a: no -sources jar"
        ls "$d"/"$a"-*-javadoc.jar >/dev/null 2>&1 || fail "$a: no -javadoc jar"
    fi
done
for d in "$G"/*/; do
    a=$(basename "$d")
    case "$a" in etw4j-parent|etw4j-bom|etw-cli-dist) continue ;; esac
    printf '%s\n' "$listed" | grep -qx "$a" || fail "$a was deployed but etw4j-bom does not list it"
done
for a in samples benchmarks etw-fuzz native-bindings; do
    [ -e "$G/$a" ] && fail "$a was deployed (users never depend on it, or it has an unprefixed name)"
done
ls "$G"/etw-cli-dist/"$VERSION"/etw-cli-dist-*.zip "$G"/etw-cli-dist/"$VERSION"/etw-cli-dist-*.tar.gz >/dev/null 2>&1 \
    || fail "the CLI distribution (zip, tar.gz) was not deployed"
echo "test-user-projects: deploy: $(printf '%s\n' "$listed" | wc -l) artifacts as etw4j-bom lists them, with sources and javadoc; samples, benchmarks, etw-fuzz not deployed"

# The user builds' local repository: ~/.m2/repository's folders linked in, but for org/etw4j, so third-party
# artifacts come from there (and what they download lands there, as any build's would) while etw4j can only come
# from the file repository. (maven.repo.local.tail would not do: a snapshot installed in ~/.m2 wins over the file
# repository's, so a stale copy there would be tested instead; from_file_repository below checks it did not.)
rm -rf "$LOCAL"
mkdir -p "$LOCAL/org"
for d in "$HOME"/.m2/repository/*; do
    [ "$(basename "$d")" = org ] || ln -s "$d" "$LOCAL/$(basename "$d")"
done
for d in "$HOME"/.m2/repository/org/*; do
    [ "$(basename "$d")" = etw4j ] || ln -s "$d" "$LOCAL/org/$(basename "$d")"
done
from_file_repository() { # the etw4j jars the user build used came from the file repository, not ~/.m2
    grep -q "etw4j-under-test" "$LOCAL/org/etw4j/$1/$VERSION/_remote.repositories" 2>/dev/null \
        || fail "$1 was not resolved from the file repository (a stale ~/.m2 copy?)"
}

# 2. etw-junit under the JUnit versions of Spring Boot 3.2-3.5
for v in 5.10.5 5.11.4 5.12.2 5.13.4; do
    p="$WORK/junit-$v"
    rm -rf "$p"
    cp -r tools/user-projects/junit "$p"
    ./mvnw "${MVN_USER[@]}" -f "$p/pom.xml" "-Djunit.version=$v" test >"$p.log" 2>&1 \
        || { tail -60 "$p.log" >&2; fail "etw-junit with JUnit $v: the user's tests fail (log: $p.log)"; }
    report="$p/target/surefire-reports/TEST-com.example.OrderServiceEventsTest.xml"
    grep -q 'tests="3" errors="0" skipped="0" failures="0"' "$report" || fail "JUnit $v: $(grep -m1 '<testsuite' "$report")"
    echo "test-user-projects: etw-junit with JUnit $v: @EtwTest and a plain test pass"
done
from_file_repository etw-junit

# 3. a Java 17 service
jdk17=""
for d in /usr/lib/jvm/*17* "$HOME"/.jdks/*17*; do [ -x "$d/bin/javac" ] && jdk17="$d" && break; done
if [ -z "$jdk17" ]; then
    [ "${CI:-}" = "true" ] && fail "no JDK 17 installed"
    echo "test-user-projects: no JDK 17: the Java 17 service is not built"
else
    p="$WORK/java17"
    rm -rf "$p"
    cp -r tools/user-projects/java17 "$p"
    # MAVEN_OPTS as the JDK 17 Maven starts it: a caller that sourced .mvn/select-jdk.sh (.ci/run does) exported
    # options for JDK 22+ (--sun-misc-unsafe-memory-access) that JDK 17 refuses.
    JAVA_HOME="$jdk17" ETW4J_MIN_JDK=17 MAVEN_OPTS= ./mvnw "${MVN_USER[@]}" -f "$p/pom.xml" test >"$p.log" 2>&1 \
        || { tail -60 "$p.log" >&2; fail "the Java 17 service's tests fail (log: $p.log)"; }
    grep -q 'tests="3" errors="0" skipped="0" failures="0"' "$p/target/surefire-reports/TEST-com.example.Java17ServiceTest.xml" \
        || fail "Java 17 service: $(grep -m1 '<testsuite' "$p/target/surefire-reports/TEST-com.example.Java17ServiceTest.xml")"
    from_file_repository etw-api
    echo "test-user-projects: a Java 17 service (JDK 17) with etw-api, etw-consumer and etw-native-bindings on its class path passes"
fi
echo "test-user-projects: ok"
