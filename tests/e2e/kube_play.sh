#!/usr/bin/env bash
# tests/e2e/kube_play.sh: the dev overlay (deploy/k8s/overlays/dev) rendered with
# `kubectl kustomize` and its workloads started by `podman kube play` from scripts/images'
# images; then a workspace is made with the feedbackctl image and the gateway answers
# authenticated requests (a link is created and read back).
# podman is not a cluster, so the rendered objects are adapted, and nothing else is changed:
#  - each Deployment's pod template is played as one pod named after the Deployment, which is
#    also its Service's name: podman's DNS then answers the names the configuration uses;
#  - the Secret becomes a podman secret (what podman's envFrom secretRef reads);
#  - container ports and probes are left out: podman would publish every port on the host,
#    and it runs probes only from systemd timers (the test waits on the gateway's /readyz);
#  - kinds podman does not play (Service, Job, PodDisruptionBudget, HorizontalPodAutoscaler,
#    Ingress, NetworkPolicy) are listed and left out; each service applies its migrations at
#    start-up as it does when the migrations Job has not run.
# Cleans up afterwards unless KEEP=1.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export CONTAINERS_CONF=$root/deploy/docker/containers.conf
. "$root/deploy/docker/images.env"
work=$root/.run/kube-play
network=feedback-kube-play
rm -rf "$work" && mkdir -p "$work"
kubectl kustomize "$root/deploy/k8s/overlays/dev" >"$work/dev.yaml" || exit 1
node - "$work" "$root" <<'JS' || exit 1
const fs = require("fs");
const path = require("path");
const [work, root] = process.argv.slice(2);
const yaml = require(path.join(root, ".tools", "node_modules", "js-yaml"));
const objects = yaml.loadAll(fs.readFileSync(path.join(work, "dev.yaml"), "utf8"));
const played = [];
const skipped = new Set();
for (const o of objects) {
  if (o.kind === "ConfigMap") {
    played.push(o);
  } else if (o.kind === "Deployment") {
    const spec = o.spec.template.spec;
    for (const c of spec.containers) {
      // podman publishes every containerPort on the host (0.0.0.0), where they would clash;
      // the probes name those ports, and podman could only run them from systemd timers.
      delete c.ports;
      delete c.readinessProbe;
      delete c.livenessProbe;
    }
    played.push({apiVersion: "v1", kind: "Pod",
                 metadata: {name: o.metadata.name, labels: o.spec.template.metadata.labels}, spec});
  } else if (o.kind === "Secret") {
    fs.writeFileSync(path.join(work, `secret.${o.metadata.name}`), JSON.stringify(o.data));
  } else {
    skipped.add(o.kind);
  }
}
fs.writeFileSync(path.join(work, "workloads.yaml"), played.map((o) => yaml.dump(o)).join("---\n"));
console.log(`kube: playing ${played.filter((o) => o.kind === "Pod").map((o) => o.metadata.name).join(", ")}; ` +
            `not played here: ${[...skipped].join(", ")}`);
JS
remove() {
  podman kube down "$work/workloads.yaml" >/dev/null 2>&1
  for secret in "$work"/secret.*; do podman secret rm "${secret##*/secret.}" >/dev/null 2>&1; done
  podman network rm --force "$network" >/dev/null 2>&1
}
cleanup() {
  for pod in $(podman pod ls --filter "network=$network" --format '{{.Name}}' 2>/dev/null); do
    podman pod logs "$pod" >"$work/$pod.log" 2>&1
  done
  [ "${KEEP:-0}" = 1 ] || remove
}
trap cleanup EXIT
remove  # what a run with KEEP=1 left
podman network create "$network" >/dev/null || exit 1
for secret in "$work"/secret.*; do
  podman secret create "${secret##*/secret.}" "$secret" >/dev/null || exit 1
done
started=$SECONDS
podman kube play --network "$network" "$work/workloads.yaml" >"$work/play.log" 2>&1 ||
  { cat "$work/play.log"; exit 1; }
gateway_ip=$(podman inspect gateway-gateway --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' 2>/dev/null)
[ -z "$gateway_ip" ] && gateway_ip=$(podman pod inspect gateway --format '{{.InfraContainerID}}' |
  xargs podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}')
ready=no
for _ in $(seq 1 300); do
  if curl -sf "http://$gateway_ip:9090/readyz" >/dev/null; then ready=yes; break; fi
  sleep 0.2
done
if [ "$ready" != yes ]; then
  echo "kube: the gateway at $gateway_ip did not become ready (logs: $work/)"
  exit 1
fi
echo "kube: the dev overlay's workloads are ready $((SECONDS - started)) s after podman kube play"

workspace=$(podman run --rm --network "$network" --read-only --env TOKENS_ADDR=tokens:50051 \
  "${FEEDBACK_IMAGE_PREFIX}feedbackctl:latest" workspace create --name "Kube play" --plan pro) ||
  { echo "kube: feedbackctl could not make a workspace"; exit 1; }
key=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["api_key"])' "$workspace")
api=http://$gateway_ip:8080/v1
created=$(curl -s -o "$work/created.json" -w '%{http_code}' -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d '{"name": "Played by podman", "questions": [{"prompt": "Anything?", "type": "text", "field_key": "anything"}]}' \
  "$api/links/")
[ "$created" = 201 ] || { echo "kube: POST /v1/links/ answered $created: $(cat "$work/created.json")"; exit 1; }
id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["uuid"])' "$work/created.json")
read_back=$(curl -s -o "$work/read.json" -w '%{http_code}' -H "Authorization: Bearer $key" "$api/links/$id/")
name=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("name", ""))' "$work/read.json" 2>/dev/null)
[ "$read_back" = 200 ] && [ "$name" = "Played by podman" ] ||
  { echo "kube: GET /v1/links/$id/ answered $read_back: $(cat "$work/read.json")"; exit 1; }
anonymous=$(curl -s -o /dev/null -w '%{http_code}' "$api/links/")
[ "$anonymous" = 401 ] || { echo "kube: GET /v1/links/ without a key answered $anonymous"; exit 1; }
echo "kube: authenticated requests answered (link $id created and read back; no key: 401)"
