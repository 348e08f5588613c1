// The Kubernetes manifests rendered offline (`kubectl kustomize` of deploy/k8s/overlays/dev and
// prod) and every object validated against the Kubernetes schemas (the kubernetes-models npm
// packages' validators, installed by scripts/setup), then checked for what a rollout relies on:
// probes, resources, a locked-down container, a disruption budget per Deployment, autoscalers
// for the gateway and the webhook dispatcher, gRPC ports reachable only from their callers, the
// ingress to the gateway, the migrations Job, and no secret in production's manifests.
//   node tests/e2e/k8s_manifests.js
"use strict";
const path = require("path");
const assert = require("assert");
const { execFileSync } = require("child_process");

const root = path.resolve(__dirname, "..", "..");
const tools = path.join(root, ".tools", "node_modules");
const yaml = require(path.join(tools, "js-yaml"));

function modelOf(object) {
  const [group, version] = object.apiVersion.includes("/") ? object.apiVersion.split("/") : [null, object.apiVersion];
  const dir = group ? `${group}/${version}` : version;
  return require(path.join(tools, "kubernetes-models", dir, object.kind))[object.kind];
}

const SERVICES = ["tokens", "links", "responses", "webhooks"];
const PROCESSES = ["gateway", ...SERVICES];

function checkContainer(where, c, problems) {
  if (!c.image) problems.push(`${where}: no image`);
  const r = c.resources || {};
  if (!r.requests?.cpu || !r.requests?.memory || !r.limits?.memory) problems.push(`${where}: requests and a memory limit`);
  const s = c.securityContext || {};
  if (s.readOnlyRootFilesystem !== true || s.allowPrivilegeEscalation !== false) problems.push(`${where}: locked-down container`);
}

function check(name, objects) {
  const problems = [];
  const of = (kind) => objects.filter((o) => o.kind === kind);
  for (const o of objects) {
    try {
      new (modelOf(o))(o).validate();
    } catch (e) {
      problems.push(`${o.kind}/${o.metadata?.name}: ${e.message.split("\n")[0]}`);
    }
  }
  const deployments = Object.fromEntries(of("Deployment").map((d) => [d.metadata.name, d]));
  for (const p of PROCESSES) {
    const d = deployments[p];
    if (!d) { problems.push(`no Deployment ${p}`); continue; }
    const pod = d.spec.template.spec;
    if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${p}: runs as root`);
    if (!pod.topologySpreadConstraints?.length) problems.push(`${p}: no topology spread`);
    const c = pod.containers[0];
    checkContainer(p, c, problems);
    const probe = p === "gateway" ? "httpGet" : "grpc";
    if (!c.readinessProbe?.[probe] || !c.livenessProbe?.[probe]) problems.push(`${p}: ${probe} readiness and liveness probes`);
    const service = of("Service").find((s) => s.spec.selector?.app === p);
    if (!service) problems.push(`${p}: no Service`);
    // Callers balance gRPC over the pods themselves: the Service must name every pod.
    if (service && SERVICES.includes(p) && service.spec.clusterIP !== "None") {
      problems.push(`${p}: its Service is not headless`);
    }
    if (!of("PodDisruptionBudget").some((b) => b.spec.selector?.matchLabels?.app === p)) problems.push(`${p}: no PodDisruptionBudget`);
  }
  for (const p of ["gateway", "webhooks"]) {
    if (!of("HorizontalPodAutoscaler").some((h) => h.spec.scaleTargetRef.name === p)) problems.push(`${p}: no autoscaler`);
  }
  // Who may reach each service's gRPC port: the gateway and admin jobs, and for webhooks also
  // the links service; nobody else.
  const allowedFor = (s) => (s === "webhooks" ? ["gateway", "links"] : ["gateway"]);
  for (const s of SERVICES) {
    const policies = of("NetworkPolicy").filter((n) => {
      const sel = n.spec.podSelector;
      return sel.matchLabels?.app === s || sel.matchExpressions?.some((e) => e.key === "app" && e.values.includes(s));
    });
    if (!policies.length) { problems.push(`${s}: gRPC port open to every pod`); continue; }
    const grpcFrom = policies.flatMap((n) => n.spec.ingress.filter((i) => i.ports?.some((p) => p.port === "grpc")))
      .flatMap((i) => i.from || [{}]);
    for (const peer of grpcFrom) {
      const app = peer.podSelector?.matchLabels?.app;
      const admin = peer.podSelector?.matchLabels?.["feedback-admin"] === "true";
      if (!admin && !allowedFor(s).includes(app)) problems.push(`${s}: gRPC reachable from ${JSON.stringify(peer)}`);
    }
  }
  // The autoscalers size the gateway and the dispatcher: a rollout must not reset them.
  for (const p of ["gateway", "webhooks"]) {
    if (deployments[p]?.spec.replicas !== undefined) problems.push(`${p}: a replica count beside its autoscaler`);
  }
  const ingress = of("Ingress")[0];
  const backends = ingress ? ingress.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service.name)) : [];
  if (!ingress || backends.some((b) => b !== "gateway") || !ingress.spec.rules.some((r) => r.host.startsWith("*."))) {
    problems.push("an Ingress for the API and the intake hosts, to the gateway");
  }
  const secrets = of("Secret");
  const job = of("Job").find((j) => j.metadata.name === "migrations");
  if (!job || job.metadata.labels?.app !== "migrations") problems.push("no migrations Job labelled app=migrations (applied first)");
  else {
    const pod = job.spec.template.spec;
    const all = [...(pod.initContainers || []), ...pod.containers];
    for (const c of all) checkContainer(`migrations/${c.name}`, c, problems);
    const migrated = all.filter((c) => c.env?.some((e) => e.name === "MIGRATE_ONLY" && e.value === "true")).map((c) => c.name);
    for (const s of SERVICES) if (!migrated.includes(s)) problems.push(`migrations: ${s} not migrated`);
    // The rollout's first step applies the objects labelled rollout-step=migrations: the Job and
    // the configuration it reads (production's Secret is made outside, with that label).
    const first = objects.filter((o) => o.metadata.labels?.["rollout-step"] === "migrations");
    const names = new Set(first.map((o) => `${o.kind}/${o.metadata.name}`));
    if (!names.has("Job/migrations")) problems.push("the migrations Job is not in the rollout's first step");
    for (const c of all) {
      for (const from of c.envFrom || []) {
        if (from.configMapRef && !names.has(`ConfigMap/${from.configMapRef.name}`)) problems.push(`migrations: ConfigMap ${from.configMapRef.name} not applied with it`);
        if (from.secretRef && secrets.length && !names.has(`Secret/${from.secretRef.name}`)) problems.push(`migrations: Secret ${from.secretRef.name} not applied with it`);
      }
    }
  }
  if (name === "prod" && secrets.length) problems.push("production's manifests hold a Secret");
  if (name === "dev" && !secrets.some((s) => s.metadata.name.startsWith("feedback-secrets"))) problems.push("dev makes no feedback-secrets");
  return problems;
}

let failed = 0;
for (const overlay of ["dev", "prod"]) {
  const rendered = execFileSync("kubectl", ["kustomize", path.join(root, "deploy", "k8s", "overlays", overlay)], { encoding: "utf8" });
  const objects = yaml.loadAll(rendered).filter(Boolean);
  const problems = check(overlay, objects);
  console.log(`k8s ${overlay}: ${objects.length} objects, ${problems.length} problems`);
  for (const p of problems) console.log(`  ${p}`);
  failed += problems.length ? 1 : 0;
}
process.exit(failed ? 1 : 0);
