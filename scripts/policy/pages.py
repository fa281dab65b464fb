#!/usr/bin/env python3
"""Writes docs/rules/ID.md for the rules of the policy layer (src/policy): the cross-object
checks, policy-error, the page of the repository's policies, and kube-linter's 31 default
checks. The text is written here; the `text` block of each example is what the built binary
prints for it (run with BIN=target/release/yttlint to fill it in; without, it keeps what the
page says). kube-linter's meaning of each check was read from stackrox/kube-linter
(Apache-2.0, docs/generated/checks.md and pkg/templates at 35de568d4982, 2026-08-19).

usage: scripts/policy/pages.py [BIN]
"""
import json, os, subprocess, sys, tempfile, re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOCS = os.path.join(ROOT, "docs", "rules")
BIN = sys.argv[1] if len(sys.argv) > 1 else None

KL_CONFIG = "policies: {checks: [kube-linter]}\n"

def deployment(spec, name="web", replicas=None, meta_extra=""):
    r = f"  replicas: {replicas}\n" if replicas is not None else ""
    return (
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
        f"  name: {name}\n{meta_extra}spec:\n{r}  selector:\n    matchLabels: {{app: {name}}}\n  template:\n"
        f"    metadata:\n      labels: {{app: {name}}}\n    spec:\n{spec}"
    )

VALUES = "#@data/values\n---\nimage: registry.example.com/web:1.4.2\n"

def kl(id, what, spec_yaml, fix, extra_files=None, differs=""):
    files = [(".yttlint.yaml", KL_CONFIG), ("config/deployment.yml", spec_yaml), ("config/values.yml", VALUES)]
    if extra_files:
        files = files[:1] + extra_files
    return dict(id=id, severity="warning", kube_linter=True, what=what + differs, files=files, fix=fix)

PAGES = []

# ---- cross-object checks and policies ------------------------------------------------------

PAGES.append(dict(
    id="duplicate-object", severity="error",
    what="""A root's output holds two objects with the same API group, kind, namespace and name
(`apps/v1` and `apps/v1beta2` Deployments are one object: the version does not matter). ytt
renders both without a word. With different content, kapp refuses the output ("Found resource
... multiple times with different content") and `kubectl apply` applies the second over the
first, so one of them is silently lost: an overlay meant to replace a document that adds a
second one, a loop that renders one name twice. Identical copies (a CRD or a Namespace in two
bundles of one release) are a **warning**, and the message says so: kapp keeps one of them and
`kubectl apply` applies it twice to the same effect, but `kubectl create` and kustomize refuse
the second. (Every duplicate the corpus and 111 public repositories render is such a copy, in
packages kapp deploys.)

The finding is at the second object's `name:`, with the first as related location, and its
message names both files and lines. Objects named by `generateName` are distinct by design
and not compared; objects kapp only waits for or skips (`kapp.k14s.io/exists`,
`kapp.k14s.io/noop`) are not objects of the output.""",
    files=[("config/app.yml", "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: #@ data.values.namespace\ndata:\n  level: info\n"),
           ("config/debug.yml", "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: #@ data.values.namespace\ndata:\n  level: debug\n"),
           ("config/values.yml", "#@data/values\n---\nnamespace: prod\n")],
    fix="""Render the object once: remove one of the documents, merge them, or give them different
names. When one was meant to change the other, make it an overlay (`#@overlay/match`)."""))

PAGES.append(dict(
    id="dangling-selector", severity="warning",
    what="""A Service, NetworkPolicy or PodDisruptionBudget whose label selector matches the pod
template of no workload the root renders: a label renamed on one side only (`app: web` in the
Deployment's template, `app: website` in the Service). ytt renders it without a word; the
Service then has no endpoints, the NetworkPolicy protects nothing, the PodDisruptionBudget
guards nothing.

Pod templates of any kind count (Deployments, StatefulSets, DaemonSets, Jobs, CronJobs, Pods,
and objects of other kinds with a `spec.template` of containers, such as an Argo Rollout), in
the same namespace (an object without a namespace may be in any), with the labels their
controller adds to each pod (`job-name` of a Job's pods, a StatefulSet's
`statefulset.kubernetes.io/pod-name`). Only selectors that select something specific are
checked: a Service without a selector (its endpoints are managed by hand) or of
`type: ExternalName`, and a NetworkPolicy or PodDisruptionBudget whose selector is empty (every
pod of the namespace) are not. And an object is checked only when a pod template of its
namespace has every label key its selector names, with other values: a selector of labels no
pod of the root has at all selects pods rendered elsewhere (another component's, an ingress
gateway's), which one root's output cannot tell. The related locations show the labels of up
to three pod templates of the namespace.

kube-linter's `dangling-service` (off by default) also reports Services without a selector,
and roots without workloads.""",
    files=[("config/app.yml", deployment("      containers:\n      - name: web\n        image: #@ data.values.image\n") +
            "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: website\n  ports:\n  - port: 80\n    targetPort: 8080\n"),
           ("config/values.yml", VALUES)],
    fix="""Make the selector match the labels of the pod template it is meant for (the related
locations show them), or remove the object."""))

PAGES.append(dict(
    id="unknown-target-port", severity="warning",
    what="""A Service port whose `targetPort` is a name, when no container of the pod templates the
Service selects declares a port of that name (`ports[].name`). The Service's endpoints then
have no port for it, and its traffic goes nowhere; ytt renders it without a word. It usually
follows a port renamed in the Deployment only.

Only Services that select at least one pod template of the root's output are checked (one that
selects none is `dangling-selector`'s), and only names: a number needs no declared port. A
name is known when any container (init containers too) of any selected pod template declares
it. The related location lists the names the containers do declare.""",
    files=[("config/app.yml", deployment("      containers:\n      - name: web\n        image: #@ data.values.image\n        ports:\n        - name: web\n          containerPort: 8080\n") +
            "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n    targetPort: http\n"),
           ("config/values.yml", VALUES)],
    fix="""Use the name the container gives its port, or the port's number."""))

TEAM_POLICY = '''load("@yttlint:policy", "violation")

def check(obj):
  if obj["kind"] != "Deployment":
    return []
  end
  labels = obj["metadata"].get("labels") or {}
  if "team" not in labels:
    return [violation("a Deployment needs a team label", path=["metadata"])]
  end
  return []
end
'''

PAGES.append(dict(
    id="policy-error", severity="error",
    what="""A policy of the repository (a `.star` file directly in a directory listed under
`policies:` in .yttlint.yaml) that fails: it does not load (a syntax error, a `load()` of a
file outside the policy directories or of `@ytt:data`), defines no `check(obj)` function,
fails while it checks an object (a missing key, a `fail()`), exceeds a limit (the steps, heap
and time of a template), or returns something that is not a list of `violation(...)`s. The
finding is at the policy's line, with ytt's message and trace. The policy checks no further
object of that root, and its other findings there are not reported.""",
    files=[(".yttlint.yaml", "policies: [policies]\n"),
           ("policies/team.star", '''load("@yttlint:policy", "violation")

def check(obj):
  if obj["metadata"]["labels"]["team"] == "":
    return [violation("empty team label", path=["metadata", "labels", "team"])]
  end
  return []
end
'''),
           ("config/app.yml", "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\ndata: {}\n"),
           ("config/values.yml", "#@data/values\n---\nname: app\n")],
    fix="""Fix the policy at the line shown: here, read the labels with `.get("labels", {})`, as an
object need not have any."""))

# ---- kube-linter ------------------------------------------------------------------------------

KL = []

def image_container(extra=""):
    return f"      containers:\n      - name: web\n        image: #@ data.values.image\n{extra}"

KL.append(kl("dangling-service",
    "kube-linter's `dangling-service`: a Service (other than `type: ExternalName`) with no selector, or whose selector matches the pod template of no workload rendered in its namespace.",
    deployment(image_container()) + "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: website}\n  ports: [{port: 80}]\n",
    "Make the Service's selector match the labels of a workload's pod template.",
    differs="\n\nUnlike `dangling-selector` (on by default), it also reports a Service without a selector, and Services of a root that renders no workload."))
KL.append(kl("deprecated-service-account-field",
    "kube-linter's `deprecated-service-account-field`: a pod spec that sets the deprecated `serviceAccount` field, without `serviceAccountName` or with a different value.",
    deployment("      serviceAccount: builder\n" + image_container()),
    "Use `serviceAccountName`; if `serviceAccount` must stay, give both the same value."))
KL.append(kl("docker-sock",
    "kube-linter's `docker-sock`: a container that mounts a hostPath volume whose path ends in `docker.sock`, which gives it the node's Docker daemon (and so the node). Reported at each volume mount of such a volume, with the volume as related location.",
    deployment("      volumes:\n      - name: docker\n        hostPath: {path: /var/run/docker.sock}\n" + image_container("        volumeMounts:\n        - name: docker\n          mountPath: /var/run/docker.sock\n")),
    "Remove the hostPath volume and its volume mount."))
KL.append(kl("drop-net-raw-capability",
    "kube-linter's `drop-net-raw-capability`: a container whose `securityContext.capabilities` does not drop `NET_RAW` (or `ALL`), or adds it (or `ALL`) back. As in kube-linter, a container that sets no `capabilities` is not reported, and a capability matches when its name contains `NET_RAW`.",
    deployment(image_container("        securityContext:\n          capabilities:\n            drop: [KILL]\n")),
    "Add `NET_RAW` (or `ALL`) to `securityContext.capabilities.drop`, and do not add it."))
KL.append(kl("duplicate-env-var",
    "kube-linter's `duplicate-env-var`: a container whose `env` names one variable twice; only the last value counts. Each name is reported once, at its second entry.",
    deployment(image_container("        env:\n        - {name: LOG_LEVEL, value: info}\n        - {name: LOG_LEVEL, value: debug}\n")),
    "Remove one of the two entries."))
KL.append(kl("env-var-secret",
    "kube-linter's `env-var-secret`: an environment variable whose name contains `secret` (in any case) with a literal `value`: the secret is written in the manifest, and in whatever renders it.",
    deployment(image_container("        env:\n        - name: API_SECRET\n          value: hunter2\n")),
    "Read the value from a Secret (`valueFrom.secretKeyRef`), or mount the Secret as a file.",
    differs="\n\nUnlike kube-linter, a variable that says where a secret is rather than holding it is not reported: a name ending in `_FILE`, `_PATH`, `_DIR`, `_NAME`, `_REF` or `_NAMESPACE`, or a value that is an absolute path. On the corpus and the precision repositories these were 34 of kube-linter's 35 matches."))
for id, field, what in [("host-ipc", "hostIPC", "IPC"), ("host-network", "hostNetwork", "network"), ("host-pid", "hostPID", "process")]:
    KL.append(kl(id,
        f"kube-linter's `{id}`: a pod spec that sets `{field}: true`, sharing the host's {what} namespace with the node's other processes.",
        deployment(f"      {field}: true\n" + image_container()),
        f"Remove `{field}: true`."))
KL.append(kl("invalid-target-ports",
    "kube-linter's `invalid-target-ports`: a container port whose `name`, or a Service port whose `targetPort`, is not a valid port name (an IANA service name: 1 to 15 lower-case letters, digits and `-`, with a letter, no `--`, no `-` at either end), or a `targetPort` number outside 1-65535.",
    deployment(image_container("        ports:\n        - name: http_metrics\n          containerPort: 9090\n")),
    "Rename the port so it follows the rules (`http-metrics`)."))
KL.append(kl("job-ttl-seconds-after-finished",
    "kube-linter's `job-ttl-seconds-after-finished`: a Job that does not set `ttlSecondsAfterFinished` (it and its pods stay after it finished), or a CronJob whose job template sets it (it then competes with the CronJob's history limits).",
    "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: migrate\n        image: #@ data.values.image\n",
    "Set `spec.ttlSecondsAfterFinished` on the Job; on a CronJob, remove it from the job template."))
KL.append(kl("latest-tag",
    "kube-linter's `latest-tag`: a container image with the tag `latest`, or with no tag (which means `latest`): what runs changes whenever the image is pushed again. An image pinned by digest is fine; a registry's port (`registry:5000/app`) is not a tag. A container without an image is not reported, nor, unlike kube-linter, an image a build tool pins at deploy time: one a kbld configuration of the root's output names (`sources`, `overrides`: kbld replaces it by a digest), or a `ko://` import path.",
    deployment(image_container()),
    "Use an image with a specific tag or digest.",
    extra_files=[("config/deployment.yml", deployment(image_container())), ("config/values.yml", "#@data/values\n---\nimage: nginx\n")]))
for id, probe, what in [("liveness-port", "livenessProbe", "liveness"), ("readiness-port", "readinessProbe", "readiness"), ("startup-port", "startupProbe", "startup")]:
    KL.append(kl(id,
        f"kube-linter's `{id}`: a container whose {what} probe (`httpGet`, `tcpSocket` or `grpc`) uses a port, by number or by name, that is not among the container's TCP `ports`: usually a port renamed or renumbered on one side only. A string of digits counts as that number; init containers are not checked.",
        deployment(image_container(f"        ports:\n        - name: web\n          containerPort: 8080\n        {probe}:\n          httpGet:\n            path: /healthz\n            port: http\n")),
        "Probe a port the container declares (by its name or number), or declare the port."))
KL.append(kl("mismatching-selector",
    "kube-linter's `mismatching-selector`: a workload whose `spec.selector` does not match the labels of its own pod template, or an `apps/v1` workload without a selector. Jobs and CronJobs may leave it out; ReplicationControllers (whose selector defaults to the template's labels) and Pods are not checked.",
    "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: website}\n    spec:\n      containers:\n      - name: web\n        image: #@ data.values.image\n",
    "Make `spec.selector` match `spec.template.metadata.labels`."))
KL.append(kl("no-anti-affinity",
    "kube-linter's `no-anti-affinity`: a workload of 2 or more replicas without a pod anti-affinity term that spreads its own pods over nodes (`topologyKey: kubernetes.io/hostname`, a `labelSelector` that selects the pod template's labels, `namespaces` that include the workload's if given; preferred terms count). Only kinds with `replicas` are checked; `replicas` left out is 1.",
    deployment(image_container(), replicas=3),
    "Add `affinity.podAntiAffinity` with a term whose `labelSelector` matches the pod template's labels and whose `topologyKey` is `kubernetes.io/hostname` (a preferred term is enough)."))
KL.append(kl("no-extensions-v1beta",
    "kube-linter's `no-extensions-v1beta`: an object of an `extensions/v1beta*` API version, which Kubernetes stopped serving (in 1.16 for workloads, 1.22 for Ingress).",
    "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: #@ data.values.port\n",
    "Use the current API version (`apps/v1`, `networking.k8s.io/v1`).",
    extra_files=[("config/ingress.yml", "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: #@ data.values.port\n"), ("config/values.yml", "#@data/values\n---\nport: 80\n")]))
KL.append(kl("no-read-only-root-fs",
    "kube-linter's `no-read-only-root-fs`: a container whose root file system is writable (`securityContext.readOnlyRootFilesystem` is not `true`). Init and ephemeral containers are checked too.",
    deployment(image_container()),
    "Set `securityContext.readOnlyRootFilesystem: true`, and mount an `emptyDir` where the program writes."))
KL.append(kl("non-existent-service-account",
    "kube-linter's `non-existent-service-account`: a pod spec that names a service account (`serviceAccountName`, else `serviceAccount`) that no ServiceAccount of the root's output defines in its namespace. `default` always exists. An object without a namespace may be in any namespace.",
    deployment("      serviceAccountName: builder\n" + image_container()),
    "Render the ServiceAccount with the workload, or name one that exists."))
KL.append(kl("pdb-max-unavailable",
    "kube-linter's `pdb-max-unavailable`: a PodDisruptionBudget whose `maxUnavailable` is 0 (or `0%`): no pod it guards may ever be evicted, so node drains hang.",
    "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  maxUnavailable: #@ data.values.max_unavailable\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels: {app: web}\n",
    "Set `maxUnavailable` above 0.",
    extra_files=[("config/pdb.yml", "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  maxUnavailable: #@ data.values.max_unavailable\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels: {app: web}\n"), ("config/values.yml", "#@data/values\n---\nmax_unavailable: 0\n")]))
KL.append(kl("pdb-min-available",
    "kube-linter's `pdb-min-available`: a PodDisruptionBudget whose `minAvailable` is 100%, or at least the replicas of a workload it guards in its namespace (one whose own selector's labels it selects; for a workload of one replica, the `minReplicas` of a HorizontalPodAutoscaler that scales it counts instead; a percentage is of the replicas, rounded up). No pod may then be evicted.",
    deployment(image_container(), replicas=2) + "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 2\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels: {app: web}\n",
    "Set `minAvailable` below the number of replicas, or use `maxUnavailable: 1`.",
    differs="\n\nkube-linter compares kinds without `replicas` (a DaemonSet) as 0 replicas, so any budget over one is reported; here they are not compared."))
KL.append(kl("pdb-unhealthy-pod-eviction-policy",
    "kube-linter's `pdb-unhealthy-pod-eviction-policy`: a `policy/v1` PodDisruptionBudget that does not set `unhealthyPodEvictionPolicy`. By default a pod that never became ready still counts against the budget, and a workload stuck in a crash loop can block node drains.",
    "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: #@ data.values.min_available\n  selector:\n    matchLabels: {app: web}\n",
    "Set `spec.unhealthyPodEvictionPolicy: AlwaysAllow`.",
    extra_files=[("config/pdb.yml", "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: #@ data.values.min_available\n  selector:\n    matchLabels: {app: web}\n"), ("config/values.yml", "#@data/values\n---\nmin_available: 1\n")]))
KL.append(kl("privilege-escalation-container",
    "kube-linter's `privilege-escalation-container`: a container that allows privilege escalation: `allowPrivilegeEscalation: true`, `privileged: true`, or the `SYS_ADMIN` capability added. One finding per container, at the first of these.",
    deployment(image_container("        securityContext:\n          allowPrivilegeEscalation: true\n")),
    "Set `allowPrivilegeEscalation: false` and `privileged: false`, and do not add `SYS_ADMIN`."))
KL.append(kl("privileged-container",
    "kube-linter's `privileged-container`: a container that runs privileged (`securityContext.privileged: true`), with every capability and device of the host.",
    deployment(image_container("        securityContext:\n          privileged: true\n")),
    "Remove `privileged: true`, and add only the capabilities the container needs."))
KL.append(kl("run-as-non-root",
    "kube-linter's `run-as-non-root`: a container that may run as root. Its `securityContext` decides, else the pod's: reported when the group is 0 (`runAsGroup: 0`), and when the user is not known to be above 0 (neither a `runAsUser` above 0 nor `runAsNonRoot: true`, or `runAsNonRoot: true` with `runAsUser: 0`). Init and ephemeral containers are checked too.",
    deployment(image_container()),
    "Set `runAsNonRoot: true` and a non-zero `runAsUser` and `runAsGroup` in the pod's or the container's `securityContext`."))
KL.append(kl("sensitive-host-mounts",
    "kube-linter's `sensitive-host-mounts`: a container that mounts a hostPath volume of one of the host's system directories (`/`, `/boot`, `/dev`, `/etc`, `/lib`, `/proc`, `/sys`, `/usr`, the directory itself). Reported at each volume mount, with the volume as related location.",
    deployment("      volumes:\n      - name: etc\n        hostPath: {path: /etc}\n" + image_container("        volumeMounts:\n        - name: etc\n          mountPath: /host/etc\n")),
    "Remove the hostPath volume and its volume mount, or mount only the files the container needs."))
KL.append(kl("ssh-port",
    "kube-linter's `ssh-port`: a container that declares TCP port 22, the port of SSH.",
    deployment(image_container("        ports:\n        - containerPort: 22\n")),
    "Do not run an SSH server in the container; if the port is not SSH, use another."))
KL.append(kl("unsafe-sysctls",
    "kube-linter's `unsafe-sysctls`: a pod that sets a sysctl under `kernel.msg`, `kernel.sem`, `kernel.shm`, `fs.mqueue.` or `net.`, which can affect the node's other pods (the kubelet refuses it unless allowed).",
    deployment("      securityContext:\n        sysctls:\n        - {name: net.core.somaxconn, value: \"1024\"}\n" + image_container()),
    "Remove the sysctl, or run the workload on nodes meant for it.",
    differs="\n\nThe sysctls Kubernetes counts as safe and allows in every pod (`kernel.shm_rmid_forced`, `net.ipv4.ip_local_port_range`, `net.ipv4.tcp_syncookies`, `net.ipv4.ping_group_range`, `net.ipv4.ip_unprivileged_port_start`, `net.ipv4.ip_local_reserved_ports`, and the `net.ipv4.tcp_keepalive_*`, `tcp_fin_timeout`, `tcp_rmem`, `tcp_wmem` ones) are not reported, though kube-linter's prefixes match them."))
KL.append(kl("unset-cpu-requirements",
    "kube-linter's `unset-cpu-requirements`: a container without a CPU request (`resources.requests.cpu` left out or 0): the scheduler places it as if it needed nothing. A value that is not a quantity is left to `k8s-schema`. Init and ephemeral containers are checked too.",
    deployment(image_container()),
    "Set `resources.requests.cpu`."))
KL.append(kl("unset-memory-requirements",
    "kube-linter's `unset-memory-requirements`: a container without a memory limit (`resources.limits.memory` left out or 0): it may take all the memory of its node. A value that is not a quantity is left to `k8s-schema`. Init and ephemeral containers are checked too.",
    deployment(image_container()),
    "Set `resources.limits.memory`."))

PAGES.extend(KL)

def render(p, output):
    off = ""
    if p.get("kube_linter"):
        off = (" when on; off by default, with kube-linter's other checks: `policies: {checks: [kube-linter]}` in "
               f".yttlint.yaml, a level under `rules:`, or `--select {p['id']}` turns it on")
    out = [f"# {p['id']}\n", wrap(f"Default severity: **{p['severity']}**{off}."), "## What it checks\n"]
    what = p["what"]
    if p.get("kube_linter"):
        what += ("\n\nThe finding sits at the template line that wrote the field it names (when the field is "
                 "missing, at the nearest written ancestor: the container, `spec:`). An object annotated "
                 f"`ignore-check.kube-linter.io/{p['id']}` (or `kube-linter.io/ignore-all`) is not reported, "
                 "as in kube-linter.")
    out.append(wrap(what))
    out.append("## Example\n")
    for path, text in p["files"]:
        lang = "python" if path.endswith(".star") else "yaml"
        out.append(f"```{lang} title=\"{path}\"\n{text}```\n")
    out.append(f"```text\n{output}\n```\n")
    out.append("## How to fix\n")
    out.append(wrap(p["fix"]))
    return "\n".join(out)

def wrap(text):
    paras = []
    for para in text.split("\n\n"):
        words = []
        for w in " ".join(para.split("\n")).split():
            # A code span stays on one line.
            if words and words[-1].count("`") % 2 == 1:
                words[-1] += " " + w
            else:
                words.append(w)
        lines, line = [], ""
        for w in words:
            if line and len(line) + 1 + len(w) > 95:
                lines.append(line)
                line = w
            else:
                line = f"{line} {w}" if line else w
        if line:
            lines.append(line)
        paras.append("\n".join(lines))
    return "\n\n".join(paras) + "\n"

def first_finding(p):
    with tempfile.TemporaryDirectory() as d:
        for path, text in p["files"]:
            full = os.path.join(d, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").write(text)
        if not os.path.exists(os.path.join(d, ".yttlint.yaml")):
            open(os.path.join(d, ".yttlint.yaml"), "w").write("")
        run = subprocess.run([BIN, "--format", "json"], cwd=d, capture_output=True, text=True)
        report = json.loads(run.stdout)
        for f in report.get("diagnostics", []):
            if f["rule"] == p["id"]:
                return f"{f['severity']}[{f['rule']}]: {f['message'].splitlines()[0]}"
        raise SystemExit(f"{p['id']}: the example does not report it: {run.stdout[:2000]} {run.stderr[:2000]}")

def previous_output(id):
    try:
        text = open(os.path.join(DOCS, f"{id}.md")).read()
    except OSError:
        return "(run scripts/policy/pages.py with the binary)"
    m = re.search(r"```text\n(.*?)\n```", text, re.S)
    return m.group(1) if m else ""

for p in PAGES:
    output = first_finding(p) if BIN else previous_output(p["id"])
    open(os.path.join(DOCS, f"{p['id']}.md"), "w").write(render(p, output))
print(f"wrote {len(PAGES)} pages")
