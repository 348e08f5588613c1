#!/usr/bin/env bash
# tests/e2e/typed_client.sh: a TypeScript client generated from the stack's served
# /v1/openapi.json (openapi-typescript, openapi-fetch and typescript, installed into .tools/ by
# scripts/setup) type-checks under tsc --strict without a cast while creating a link with one
# question of each type, answering it through the intake and reading the response and the
# summary (tests/e2e/typed_client/client.ts); wrong configurations must not type-check
# (wrong.ts); then the client runs against the stack.   Environment: STACK_DIR (default .run).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
stack_dir=${STACK_DIR:-$root/.run}
tools=$root/.tools/node_modules
set -a
. "$stack_dir/stack.env"
set +a
work=$stack_dir/typed-client
rm -rf "$work"
mkdir -p "$work"
cp "$root"/tests/e2e/typed_client/{client.ts,wrong.ts,tsconfig.json} "$work/"
ln -s "$tools" "$work/node_modules"
echo '{"type": "module"}' >"$work/package.json"
origin="http://$GATEWAY_ADDR"
curl -sf "$origin/v1/openapi.json" -o "$work/openapi.json"
# Defaults do not make a key required: a request may leave it out.
"$tools/.bin/openapi-typescript" "$work/openapi.json" --default-non-nullable false -o "$work/api.d.ts" >/dev/null
# Without a cast: no `as` between an expression and a type, no angle-bracket assertion.
if grep -vE '^\s*//' "$work/client.ts" | grep -nE '\bas [A-Za-z{(]|<[A-Z][A-Za-z]*>\s*[a-z(]'; then
  echo "typed client: client.ts casts"
  exit 1
fi
(cd "$work" && "$tools/.bin/tsc" -p tsconfig.json)
read -r host key < <(eval "$FEEDBACKCTL workspace create --name typed-$$ --plan enterprise" |
  python3 -c 'import json, sys; w = json.load(sys.stdin); print(w["host"], w["api_key"])')
ORIGIN=$origin INTAKE_ORIGIN="http://$host:${GATEWAY_ADDR##*:}" API_KEY=$key \
  node --require "$root/tests/e2e/typed_client/localhost.cjs" "$work/out/client.js"
