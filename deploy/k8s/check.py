#!/usr/bin/env python3
"""What the Kubernetes schemas cannot check in the rendered overlays.

Run by deploy/k8s/validate.sh on `kubectl kustomize` output (needs PyYAML,
which kubernetes-validate brings). Each check names the overlay and the
field; any failure exits 1.
"""

import argparse
import re
import sys

import yaml

# Memory a pod needs beyond the cache's byte bound (FAAN_CACHE_MAX_BYTES).
# Measured with deploy/loopback/cache_fill.lua (deploy/README.md, "Memory"):
# 17.5 MiB at start, 115.8 MiB with the cache at its 64 MiB bound, the
# front included: 98 MiB over the process, what a quarter more than the
# bytes counted and the front at worst (2048 slots of a 1 KiB request and
# an 8 KiB answer: 18 MiB) allow. On top: the process (18 MiB at start,
# idle, once the start-up heap is handed back), the bodies and answers held at once
# (FAAN_MAX_BUFFERED_BYTES, counted by faan itself), and what each open
# connection can hold inside actix (FAAN_MAX_CONNECTIONS per worker; see
# deploy/README.md, "Memory", for how PER_CONNECTION was measured).
CACHE_OVERHEAD = 1.25
FRONT_MAX = 18 * 2**20
PROCESS = 18 * 2**20
# faan's defaults (src/config.rs) when the ConfigMap leaves them out.
BUFFERED_DEFAULT = 16 * 2**20
CONNECTIONS_DEFAULT = 64
PER_CONNECTION = 160 * 2**10
# A blocking thread's working memory on the worst ledger (2,000 hands of
# three winners: 1.2 MB in, 4 MB out, 25 MiB over the process measured);
# FAAN_BLOCKING_THREADS defaults to one fewer than the workers, at least 1.
PER_BLOCKING_THREAD = 26 * 2**20
# The shanten tables, once per process after the first analysis: 25 MB kept,
# and a 19.5 MB pass while they are built (engine/src/core/shanten.rs; the worst
# analyze request peaked 44 MiB over the process, bench/hostile.md).
SHANTEN_TABLES = 45 * 2**20
# The probes' listener (FAAN_ADMIN_ADDR): one worker of its own and at most
# startup::ADMIN_MAX_CONNECTIONS (16) connections of PER_CONNECTION each.
ADMIN_CONNECTIONS = 16
# Answers compressed at once (FAAN_MAX_COMPRESSORS, default 8), each
# compressor's state at most 0.5 MiB (brotli quality 1, a 64 KiB window;
# gzip level 1: bench/hostile.md), and the files compressed once at start-up
# (the page, /docs, /openapi.json in brotli and gzip: under 0.5 MiB).
# With a store (FAAN_STORE from a Secret), event streams: FAAN_EVENTS_MAX of
# them, outside the connections above, each PER_STREAM (its connection in
# actix with at most 4 KiB of its event, its place in the hub, and its
# kernel send buffer: bench/tables.md, "Streams held"), and the latest
# event of its table (shared by the table's streams; at worst one table a
# stream), a table at most FAAN_LEDGER_HANDS hands of PER_TABLE_HAND (the
# worst ledger's 1.2 MB in and 4 MB out over 2,000 hands: request and
# answer, both kept in a table).
EVENTS_DEFAULT = 10_000
PER_STREAM = 32 * 2**10
LEDGER_HANDS_DEFAULT = 2000
PER_TABLE_HAND = 2600
COMPRESSORS_DEFAULT = 8
PER_COMPRESSOR = 2**19
STATIC_VARIANTS = 2**19

MEMORY_UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "K": 10**3, "M": 10**6, "G": 10**9, "": 1}

errors = []


def check(ok, overlay, what):
    if not ok:
        errors.append(f"{overlay}: {what}")


def memory_bytes(q):
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi|K|M|G|)", str(q))
    if not m:
        raise ValueError(f"memory quantity {q!r}")
    return int(m.group(1)) * MEMORY_UNITS[m.group(2)]


def cpu_cores(q):
    q = str(q)
    return int(q[:-1]) / 1000 if q.endswith("m") else float(q)


def by_kind(docs):
    out = {}
    for d in docs:
        out.setdefault(d["kind"], []).append(d)
    return out


def matches(selector, labels):
    return all(labels.get(k) == v for k, v in selector.items())


def check_overlay(name, docs, image_uid):
    k = by_kind(docs)
    # Only this overlay's own failures stop its checks: an earlier overlay's
    # must not skip them.
    failed_before = len(errors)
    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget",
                 "ConfigMap"):
        check(len(k.get(kind, [])) == 1, name, f"one {kind}, found {len(k.get(kind, []))}")
    if len(errors) > failed_before:
        return
    dep, svc, hpa, pdb, cm = (k[x][0] for x in ("Deployment", "Service",
                                                "HorizontalPodAutoscaler",
                                                "PodDisruptionBudget", "ConfigMap"))
    pod = dep["spec"]["template"]
    labels = pod["metadata"]["labels"]
    spec = pod["spec"]
    (c,) = [c for c in spec["containers"] if c["name"] == "faan"]
    config = cm["data"]

    # Probes: on the admin listener, outside the API's connection limit.
    check(c["readinessProbe"]["httpGet"]["path"] == "/readyz", name, "readiness probe on /readyz")
    check(c["livenessProbe"]["httpGet"]["path"] == "/healthz", name, "liveness probe on /healthz")
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    admin_addr = str(config.get("FAAN_ADMIN_ADDR", "0.0.0.0:9090"))
    check(admin_addr != "none" and admin_addr.endswith(f":{ports.get('admin')}"), name,
          "FAAN_ADMIN_ADDR listens on the container's admin port")
    for probe in ("readinessProbe", "livenessProbe"):
        check(c[probe]["httpGet"]["port"] == "admin", name, f"{probe} on the admin port")
    ann = pod["metadata"].get("annotations", {})
    check(ann.get("prometheus.io/scrape") == "true" and ann.get("prometheus.io/path") == "/metrics"
          and str(ann.get("prometheus.io/port")) == str(ports.get("admin")), name,
          "Prometheus scrapes /metrics on the admin port")
    check(all(str(p.get("targetPort")) != "admin" and p.get("targetPort") != ports.get("admin")
              for p in svc["spec"]["ports"]), name, "the Service does not expose the admin port")

    # The environment: the ConfigMap, and FAAN_WORKERS from the CPU limit.
    check([e["configMapRef"]["name"] for e in c.get("envFrom", [])] == [cm["metadata"]["name"]],
          name, "the container reads the FAAN_* ConfigMap (envFrom)")
    check(all(key.startswith("FAAN_") for key in config), name, "the ConfigMap holds FAAN_* only")
    env = {e["name"]: e for e in c.get("env", [])}
    ref = env.get("FAAN_WORKERS", {}).get("valueFrom", {}).get("resourceFieldRef", {})
    check(ref.get("resource") == "limits.cpu" and ref.get("containerName") == "faan"
          and str(ref.get("divisor")) == "1", name,
          "FAAN_WORKERS comes from the container's CPU limit (resourceFieldRef, divisor 1)")
    check("FAAN_WORKERS" not in config, name, "FAAN_WORKERS is not also set in the ConfigMap")

    # Resources: requests and limits for both, Guaranteed QoS.
    res = c["resources"]
    for kind in ("cpu", "memory"):
        check(kind in res.get("requests", {}) and kind in res.get("limits", {}), name,
              f"{kind} request and limit")
    check(res["requests"] == res["limits"], name, "requests equal limits (Guaranteed QoS)")
    check(cpu_cores(res["limits"]["cpu"]) >= 0.5, name, "at least half a core")
    cache = int(config["FAAN_CACHE_MAX_BYTES"])
    buffered = int(config.get("FAAN_MAX_BUFFERED_BYTES", BUFFERED_DEFAULT))
    workers = -(-cpu_cores(res["limits"]["cpu"]) // 1)  # FAAN_WORKERS rounds the limit up
    connections = int(config.get("FAAN_MAX_CONNECTIONS", CONNECTIONS_DEFAULT)) * workers
    threads = int(config.get("FAAN_BLOCKING_THREADS", max(1, workers - 1)))
    compressors = int(config.get("FAAN_MAX_COMPRESSORS", COMPRESSORS_DEFAULT))
    stored = "secretKeyRef" in env.get("FAAN_STORE", {}).get("valueFrom", {})
    streams = int(config.get("FAAN_EVENTS_MAX", EVENTS_DEFAULT)) if stored else 0
    hands = int(config.get("FAAN_LEDGER_HANDS", LEDGER_HANDS_DEFAULT))
    need = (streams * (PER_STREAM + hands * PER_TABLE_HAND) + cache * CACHE_OVERHEAD + FRONT_MAX + PROCESS + buffered
            + (connections + ADMIN_CONNECTIONS) * PER_CONNECTION + threads * PER_BLOCKING_THREAD
            + SHANTEN_TABLES + compressors * PER_COMPRESSOR + STATIC_VARIANTS)
    have = memory_bytes(res["limits"]["memory"])
    check(have >= need, name,
          f"memory limit {res['limits']['memory']} ({have / 2**20:.0f} MiB) covers the cache "
          f"bound {cache / 2**20:.0f} MiB x {CACHE_OVERHEAD} + front + process + bodies and "
          f"answers {buffered / 2**20:.0f} MiB + {connections:.0f} connections and "
          f"{ADMIN_CONNECTIONS} on the admin listener + {compressors} compressors + "
          f"{threads:.0f} blocking threads + the shanten tables + {streams} event streams "
          f"({need / 2**20:.0f} MiB)")

    # Drain: the kubelet waits longer than faan's delay plus its timeout.
    delay = int(config["FAAN_SHUTDOWN_DELAY"])
    timeout = int(config["FAAN_SHUTDOWN_TIMEOUT"])
    grace = spec["terminationGracePeriodSeconds"]
    check(delay >= 1, name, "FAAN_SHUTDOWN_DELAY gives load balancers time to drop the pod")
    check(grace > delay + timeout, name,
          f"terminationGracePeriodSeconds {grace} > FAAN_SHUTDOWN_DELAY {delay} + "
          f"FAAN_SHUTDOWN_TIMEOUT {timeout}")

    # Security: non-root by number, the image's own UID, nothing to escalate with.
    psc, csc = spec.get("securityContext", {}), c.get("securityContext", {})
    check(psc.get("runAsNonRoot") is True, name, "runAsNonRoot")
    uid = psc.get("runAsUser")
    check(isinstance(uid, int) and uid > 0, name, "runAsUser is a non-zero number")
    check(uid == image_uid, name, f"runAsUser {uid} is the Dockerfile's USER {image_uid}")
    check(psc.get("seccompProfile", {}).get("type") == "RuntimeDefault", name,
          "seccompProfile RuntimeDefault")
    check(csc.get("readOnlyRootFilesystem") is True, name, "readOnlyRootFilesystem")
    check(csc.get("allowPrivilegeEscalation") is False, name, "allowPrivilegeEscalation false")
    check(csc.get("capabilities", {}).get("drop") == ["ALL"], name, "capabilities: drop ALL")
    check(not csc.get("capabilities", {}).get("add"), name, "no capability added")
    check(spec.get("automountServiceAccountToken") is False, name, "no service account token")

    # Wiring: selectors find the pods, the HPA scales this Deployment on CPU.
    check(matches(dep["spec"]["selector"]["matchLabels"], labels), name, "Deployment selector")
    check(matches(svc["spec"]["selector"], labels), name, "Service selector matches the pods")
    port = {p["name"]: p["containerPort"] for p in c["ports"]}
    check(str(config["FAAN_ADDR"]).endswith(f":{port.get('http')}"), name,
          "FAAN_ADDR listens on the container's http port")
    check(pdb["apiVersion"] == "policy/v1" and matches(pdb["spec"]["selector"]["matchLabels"],
                                                        labels), name, "PDB (policy/v1) selects the pods")
    check(hpa["apiVersion"] == "autoscaling/v2", name, "HPA is autoscaling/v2")
    check(hpa["spec"]["scaleTargetRef"]["name"] == dep["metadata"]["name"], name, "HPA target")
    check([m["resource"]["name"] for m in hpa["spec"]["metrics"]] == ["cpu"], name, "HPA on CPU")
    check(hpa["spec"]["minReplicas"] == dep["spec"]["replicas"], name,
          "HPA minReplicas equals the Deployment's replicas")
    return dep, config, k


def check_scoring_only(name, overlay):
    """The base and its scoring overlays keep no tables."""
    if overlay:
        _, config, k = overlay
        check(config.get("FAAN_STORE") == "none", name, "FAAN_STORE=none (scoring only)")
        check(not k.get("StatefulSet"), name, "no database")


def check_tables(docs, image_uid):
    """The tables overlay: production's faan, its store from a Secret, and
    one PostgreSQL with a volume."""
    name = "tables"
    component = lambda d: d["metadata"].get("labels", {}).get("app.kubernetes.io/component")
    faan = [d for d in docs if component(d) != "postgres"
            and not (d["kind"] == "StatefulSet" and d["metadata"]["name"] == "faan-postgres")]
    out = check_overlay(name, faan, image_uid)
    if not out:
        return
    dep, config, _ = out
    (c,) = [c for c in dep["spec"]["template"]["spec"]["containers"] if c["name"] == "faan"]
    env = {e["name"]: e for e in c.get("env", [])}
    ref = env.get("FAAN_STORE", {}).get("valueFrom", {}).get("secretKeyRef", {})
    check(ref.get("name") == "faan-store" and ref.get("key") == "url", name,
          "FAAN_STORE comes from the faan-store Secret (url)")
    ings = [d for d in docs if d["kind"] == "Ingress"
            and any(p["path"] == "/v1/tables" for r in d["spec"]["rules"]
                    for p in r["http"]["paths"])]
    check(len(ings) == 1, name, "an Ingress of its own for /v1/tables")
    if ings:
        ann = ings[0]["metadata"].get("annotations", {})
        check("non_idempotent" not in ann.get("nginx.ingress.kubernetes.io/proxy-next-upstream", ""),
              name, "a table's change is never retried once sent (no non_idempotent)")
        check(ann.get("nginx.ingress.kubernetes.io/proxy-buffering") == "off", name,
              "event streams unbuffered (proxy-buffering off)")
    sts = [d for d in docs if d["kind"] == "StatefulSet"]
    check(len(sts) == 1, name, "one PostgreSQL StatefulSet")
    if sts:
        s = sts[0]
        claims = s["spec"].get("volumeClaimTemplates", [])
        check(len(claims) == 1, name, "PostgreSQL keeps its data on a volume claim")
        (pg,) = s["spec"]["template"]["spec"]["containers"]
        mounts = {m["name"] for m in pg.get("volumeMounts", [])}
        check(claims and claims[0]["metadata"]["name"] in mounts, name, "the claim is mounted")
        penv = {e["name"]: e for e in pg.get("env", [])}
        check("secretKeyRef" in penv.get("POSTGRES_PASSWORD", {}).get("valueFrom", {}), name,
              "the database password comes from a Secret")
        svcs = [d for d in docs if d["kind"] == "Service"
                and d["metadata"]["name"] == s["spec"]["serviceName"]]
        check(len(svcs) == 1 and matches(svcs[0]["spec"]["selector"],
                                         s["spec"]["template"]["metadata"]["labels"]),
              name, "the database's Service selects its pod")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dockerfile", required=True)
    ap.add_argument("--production", required=True)
    ap.add_argument("--dev", required=True)
    ap.add_argument("--tables", required=True)
    args = ap.parse_args()

    users = re.findall(r"^USER\s+(\S+)", open(args.dockerfile).read(), re.M)
    check(len(users) == 1 and re.fullmatch(r"\d+(:\d+)?", users[0] if users else ""),
          "Dockerfile", f"USER is numeric (uid:gid), got {users}")
    image_uid = int(users[0].split(":")[0]) if errors == [] else None

    prod = check_overlay("production", list(yaml.safe_load_all(open(args.production))), image_uid)
    dev = check_overlay("dev", list(yaml.safe_load_all(open(args.dev))), image_uid)
    if prod and dev:
        pdep, pconfig, pk = prod
        ddep, _, dk = dev
        check(pdep["spec"]["replicas"] > 2, "production", "more replicas than the base's 2")
        check(pconfig["FAAN_LOG_FORMAT"] == "json", "production", "JSON logs")
        ingresses = pk.get("Ingress", [])
        check(len(ingresses) == 1, "production", "one Ingress")
        if ingresses:
            ann = ingresses[0]["metadata"].get("annotations", {})
            check(ann.get("nginx.ingress.kubernetes.io/upstream-hash-by") == "$http_x_faan_key",
                  "production", "Ingress hashes on $http_x_faan_key")
            retry = ann.get("nginx.ingress.kubernetes.io/proxy-next-upstream", "").split()
            check({"error", "timeout", "http_502", "http_503", "non_idempotent"} <= set(retry),
                  "production", "Ingress retries POSTs on error, timeout, 502 and 503")
        check(pdep["metadata"]["namespace"] != ddep["metadata"]["namespace"], "dev",
              "its own namespace")
        check(not dk.get("Ingress"), "dev", "no Ingress")

    check_tables(list(yaml.safe_load_all(open(args.tables))), image_uid)
    check_scoring_only("production", prod)
    check_scoring_only("dev", dev)

    if errors:
        for e in errors:
            print(f"check.py: FAIL {e}", file=sys.stderr)
        return 1
    print("check.py: production, dev and tables: probes, drain, workers, memory, security and "
          "routing checks all hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
