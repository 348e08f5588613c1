#!/usr/bin/env bash
# tests/e2e/openapi_proxy.sh: the public conformance cases of the REST API sent through Prism's
# validation proxy (@stoplight/prism-cli, installed by scripts/setup) in front of the stack's
# gateway: every answer that violates services/gateway/openapi/openapi.json fails the run, so
# the document cannot drift from the code. Requests the cases send on purpose against the
# rules (bad input) are counted, not failed. The public intake is called on the gateway
# directly: Prism drops the Host header that names its workspace.
# Environment: STACK_DIR (default .run), CONFORMANCE (the suite's run.py).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
stack_dir=${STACK_DIR:-$root/.run}
conformance=${CONFORMANCE:-$root/../shared/conformance/run.py}
set -a
. "$stack_dir/stack.env"
set +a
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$stack_dir/logs/prism.log
"$root/.tools/node_modules/.bin/prism" proxy "$root/services/gateway/openapi/openapi.json" \
  "http://$GATEWAY_ADDR" --host 127.0.0.1 --port "$port" >"$log" 2>&1 &
prism=$!
trap 'kill $prism 2>/dev/null' EXIT
for _ in $(seq 1 100); do
  grep -q "Prism is listening" "$log" && break
  sleep 0.2
done
BASE_URL="http://127.0.0.1:$port/v1/" python3 "$conformance" --public \
  --only wire,auth,scopes,links,quota,tokens,responses,idempotency,ai -j 4 | tail -1
sed 's/\x1b\[[0-9;]*m//g' "$log" | grep "Violation: response" | sed 's/.*Violation: //' | sort | uniq -c \
  >"$stack_dir/openapi_violations.txt"
requests=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -c "Violation: request")
answers=$(grep -c "" "$stack_dir/openapi_violations.txt")
echo "openapi: $(grep -c 'Request received' "$log") requests through Prism; $requests requests against the document (bad input on purpose); answers violating it: $(awk '{n += $1} END {print n + 0}' "$stack_dir/openapi_violations.txt")"
if [ "$answers" -gt 0 ]; then
  cat "$stack_dir/openapi_violations.txt"
  exit 1
fi
