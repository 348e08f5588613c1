#!/usr/bin/env bash
# tests/e2e/containers_smoke.sh: the images of scripts/images run together in one podman pod
# (the development PostgreSQL and Redis included), every process with a read-only root
# filesystem as its non-root user, and the public conformance cases pass against them. Waits
# on the images' own health checks. Prints the seconds from the first container to a ready
# stack. Removes the pod afterwards, unless KEEP=1.
# Environment: CONFORMANCE (the suite's run.py), CONFORMANCE_AREAS, KEEP.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
conformance=${CONFORMANCE:-$root/../shared/conformance/run.py}
areas=${CONFORMANCE_AREAS:-wire,auth,tokens,links,quota,badinput,intake,responses,scopes,ratelimit,idempotency,webhooks,ai,media}
export CONTAINERS_CONF=$root/deploy/docker/containers.conf
. "$root/deploy/docker/images.env"
work=$root/.run/containers-smoke
pod=feedback-smoke-$$
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cleanup() {
  podman pod logs "$pod" >"$work/pod.log" 2>&1
  [ "${KEEP:-0}" = 1 ] || podman pod rm --force "$pod" >/dev/null 2>&1
}
trap cleanup EXIT

for image in $FEEDBACK_PROCESSES $FEEDBACK_DEV_IMAGES; do
  podman image exists "$FEEDBACK_IMAGE_PREFIX$image:latest" ||
    { echo "containers: $FEEDBACK_IMAGE_PREFIX$image:latest is missing (run scripts/images)"; exit 1; }
done
rm -rf "$work" && mkdir -p "$work"
# The suite's webhook receiver runs on this host; the webhooks container reaches it by the name
# podman gives the host, which its certificate must carry.
receiver_host=host.containers.internal
RECEIVER_HOST=$receiver_host python3 "$root/../shared/conformance/lib/make_ca.py" "$work/ca" >/dev/null ||
  { echo "containers: could not make the receiver's CA"; exit 1; }
chmod 644 "$work/ca/ca.pem"
port=$(free_port)
started=$SECONDS
podman pod create --name "$pod" --publish "127.0.0.1:$port:8080" >/dev/null || exit 1

run() { # run NAME IMAGE [podman options...]
  local name=$1 image=$2
  shift 2
  # No systemd here to run health checks on a timer: the tests run them (wait_healthy).
  podman run --detach --pod "$pod" --name "$pod-$name" --health-interval disable "$@" "$FEEDBACK_IMAGE_PREFIX$image:latest" >/dev/null
}
wait_healthy() { # wait_healthy NAME...: the image's HEALTHCHECK, run on demand
  local name
  for name in "$@"; do
    for _ in $(seq 1 150); do
      podman healthcheck run "$pod-$name" >/dev/null 2>&1 && continue 2
      sleep 0.2
    done
    echo "containers: $name is not healthy"
    podman logs --tail 20 "$pod-$name"
    return 1
  done
}

secrets_key=$(head -c 32 /dev/urandom | base64)
service_env=(
  --env DATABASE_URL=postgresql://feedback@127.0.0.1:5432/feedback
  --env REDIS_URL=redis://127.0.0.1:6379
  --env SECRETS_KEY="$secrets_key"
  --env TOKENS_ADDR=127.0.0.1:50051 --env LINKS_ADDR=127.0.0.1:50052
  --env RESPONSES_ADDR=127.0.0.1:50053 --env WEBHOOKS_ADDR=127.0.0.1:50054
  --env PUBLIC_SCHEME=http --env PUBLIC_HOST_SUFFIX=localhost
  --env WEBHOOK_ALLOW_PRIVATE=true --env WEBHOOK_RETRY_SCALE=0.01
  --env WEBHOOK_CA_BUNDLE=/etc/feedback/webhook-ca.pem
  --volume "$work/ca/ca.pem:/etc/feedback/webhook-ca.pem:ro"
  --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges
)
run postgres dev-postgres --env POSTGRES_FSYNC=off &&
  run redis dev-redis && wait_healthy postgres redis || exit 1
for service in tokens links responses webhooks gateway; do
  run "$service" "$service" "${service_env[@]}" || exit 1
done
wait_healthy tokens links responses webhooks gateway || exit 1
echo "containers: stack ready $((SECONDS - started)) s after its first container started"

for name in gateway tokens links responses webhooks; do
  user=$(podman exec "$pod-$name" id -u)
  [ "$user" = 65532 ] || { echo "containers: $name runs as uid $user, not 65532"; exit 1; }
  # As root, so that only the read-only mount can refuse it.
  if podman exec --user 0 "$pod-$name" touch /written 2>/dev/null; then
    echo "containers: $name could write to its root filesystem"
    exit 1
  fi
done
for image in $FEEDBACK_PROCESSES; do
  found=$(podman run --rm --entrypoint /bin/sh "$FEEDBACK_IMAGE_PREFIX$image:latest" -c \
    'command -v cc c++ gcc g++ clang ld as; ls /usr/include 2>/dev/null | head -3; echo checked')
  if [ "$found" != checked ]; then
    echo "containers: the $image image has build tools or headers: $found"
    exit 1
  fi
done

BASE_URL="http://127.0.0.1:$port/v1/" PUBLIC_SCHEME=http \
  FEEDBACKCTL="podman run --rm --pod $pod --read-only --env TOKENS_ADDR=127.0.0.1:50051 ${FEEDBACK_IMAGE_PREFIX}feedbackctl:latest" \
  RECEIVER_HOST=$receiver_host RECEIVER_BIND=0.0.0.0 RECEIVER_CERT_DIR=$work/ca RECEIVER_PORT=$(free_port) \
  python3 "$conformance" --public --only "$areas" -j 4 | tee "$work/conformance.log" | grep -E "^FAIL|passed"
line=$(tail -1 "$work/conformance.log")
if [[ $line =~ ([0-9]+)\ passed,\ 0\ failed ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
  echo "containers: the public conformance cases pass against the images"
  exit 0
fi
echo "containers: conformance against the images failed (logs: $work/)"
exit 1
