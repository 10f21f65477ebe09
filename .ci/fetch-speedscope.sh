#!/usr/bin/env bash
# Fetches speedscope (https://github.com/jlfwong/speedscope, MIT), the independent viewer etw-report's
# SpeedscopeBrowserTest opens our `etw profile --format speedscope` and `etw timeline` files in: `bash .ci/fetch-speedscope.sh`.
# The npm package ships the built web app (dist/release/index.html + its script), which runs from file:// offline.
# Pinned version and integrity: the sha512 is the registry's own (`npm view speedscope@1.25.0 dist.integrity`) and is
# checked here against the downloaded tarball, so a different file fails. Unpacked into target/ci-tools/speedscope/
# (ignored by git, reused while the pinned version matches), never committed; its LICENCE stays beside it
# (target/ci-tools/speedscope/package/LICENSE). Needs npm (Debian: npm) and openssl.
set -euo pipefail
cd "$(dirname "$0")/.."

SPEEDSCOPE_VERSION=1.25.0
SPEEDSCOPE_INTEGRITY=sha512-cpf9HWTZf1ijLXBJrk87Ve/54tnYx6rlf0gUThvn3ook6h63hLXVOQiMf44PT+XoV503cPfvfiT5gP5vojp6Ag==
dir=target/ci-tools/speedscope

if [ -f "$dir/package/dist/release/index.html" ] && [ -f "$dir/package/LICENSE" ] \
   && [ "$(cat "$dir/integrity" 2>/dev/null)" = "$SPEEDSCOPE_INTEGRITY" ]; then
  exit 0 # already there, same pinned tarball
fi
echo "fetch-speedscope: speedscope@$SPEEDSCOPE_VERSION into $dir"
rm -rf "$dir"
mkdir -p "$dir"
# npm pack downloads the registry's tarball without installing anything or running any script.
npm pack --pack-destination "$dir" --silent --ignore-scripts "speedscope@$SPEEDSCOPE_VERSION" >/dev/null
tgz="$dir/speedscope-$SPEEDSCOPE_VERSION.tgz"
actual="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [ "$actual" != "$SPEEDSCOPE_INTEGRITY" ]; then
  echo "fetch-speedscope: $tgz has integrity $actual, expected the pinned $SPEEDSCOPE_INTEGRITY" >&2
  rm -f "$tgz"
  exit 1
fi
tar -xzf "$tgz" -C "$dir" package/LICENSE package/package.json package/dist/release
rm -f "$tgz"
echo "$SPEEDSCOPE_INTEGRITY" > "$dir/integrity"
echo "fetch-speedscope: $dir/package/dist/release/index.html (licence: $dir/package/LICENSE)"
