#!/usr/bin/env bash
# tests/e2e/openapi_proxy.sh: the public conformance cases sent through Prism's validation proxy
# (@stoplight/prism-cli, installed by scripts/setup) in front of a gateway of the stack's: every
# answer that violates services/gateway/openapi/openapi.json fails the run, so the document
# cannot drift from the code. Requests the cases send on purpose against the rules (bad input)
# are counted, not failed. Prism drops the Host header that names an intake's workspace, so a
# relay in front of it copies Host into X-Forwarded-Host (host_relay.py), and the gateway here
# trusts it from this machine (TRUSTED_PROXIES). Some cases fail through Prism and pass
# without it, and are shown but not counted: Prism follows redirects itself (the trailing-slash
# 301s), re-encodes binary bodies as text (the file, signature and audio uploads), and holds a body that
# is not JSON (invalid_json_400).
# Environment: STACK_DIR (default .run), CONFORMANCE (the suite's run.py).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
stack_dir=${STACK_DIR:-$root/.run}
conformance=${CONFORMANCE:-$root/../shared/conformance/run.py}
set -a
. "$stack_dir/stack.env"
set +a
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
gateway_port=$(free_port)
gateway_admin=$(free_port)
prism_port=$(free_port)
relay_port=$(free_port)
log=$stack_dir/logs/prism.log
pids=()
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
(
  set -a
  . "$stack_dir/services.env"
  exec env GATEWAY_PORT="$gateway_port" ADMIN_PORT="$gateway_admin" TRUSTED_PROXIES=127.0.0.1 \
    "$root/build/services/gateway/gateway"
) >"$stack_dir/logs/gateway-prism.log" 2>&1 &
pids+=($!)
"$root/.tools/node_modules/.bin/prism" proxy "$root/services/gateway/openapi/openapi.json" \
  "http://127.0.0.1:$gateway_port" --host 127.0.0.1 --port "$prism_port" >"$log" 2>&1 &
pids+=($!)
python3 "$root/tests/e2e/host_relay.py" "$relay_port" "127.0.0.1:$prism_port" &
pids+=($!)
ready=no
for _ in $(seq 1 150); do
  if grep -q "Prism is listening" "$log" && curl -sf "http://127.0.0.1:$gateway_admin/readyz" >/dev/null; then
    ready=yes
    break
  fi
  sleep 0.2
done
if [ "$ready" != yes ]; then
  echo "openapi: the gateway or Prism did not start (logs: $log, $stack_dir/logs/gateway-prism.log)"
  exit 1
fi
summary=$(BASE_URL="http://127.0.0.1:$relay_port/v1/" GATEWAY_ADDR="127.0.0.1:$relay_port" \
  python3 "$conformance" --public --only wire,auth,scopes,links,quota,tokens,intake,responses,idempotency,ai,media,types,logic \
  -j 4 | grep -E "^FAIL|passed")
echo "$summary"
sed 's/\x1b\[[0-9;]*m//g' "$log" | grep "Violation: response" | sed 's/.*Violation: //' | sort | uniq -c \
  >"$stack_dir/openapi_violations.txt"
requests=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -c "Violation: request")
answers=$(grep -c "" "$stack_dir/openapi_violations.txt")
echo "openapi: $(grep -c 'Request received' "$log") requests through Prism; $requests requests against the document (bad input on purpose); answers violating it: $(awk '{n += $1} END {print n + 0}' "$stack_dir/openapi_violations.txt")"
# A run that reached nothing proves nothing: most cases must have passed through Prism.
passed=$(echo "$summary" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
if [ "${passed:-0}" -lt 50 ] || [ "$(grep -c 'Request received' "$log")" -lt 150 ]; then
  echo "openapi: too little went through Prism (${passed:-0} cases passed)"
  exit 1
fi
if [ "$answers" -gt 0 ]; then
  cat "$stack_dir/openapi_violations.txt"
  exit 1
fi
