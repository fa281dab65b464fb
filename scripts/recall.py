#!/usr/bin/env python3
"""Recall benchmark: how many realistic defects yttlint catches, and how many ytt catches.

Copies clean roots of ../shared/corpus (ytt renders them with exit 0), injects ONE defect into
each copy, then runs ytt (the root's own command from manifest.tsv) and yttlint (the copy as a
repository whose `.yttlint.yaml` declares that command). A mutant is *caught* when yttlint
reports an error or warning that the unmutated copy does not have, in the mutated file within
three lines of the change; anywhere in the root for defects whose effect shows elsewhere
(data value paths, values types, overlay selectors); and, when ytt fails, any new error (the
failure reported where yttlint evaluates it). Prints one table row per class: mutants, ytt fails, yttlint
catches (as error / as warning), and mutants ytt rejects that yttlint misses (lost). A mutant
of an output class (values types, manifest fields and types, overlay selectors, indentation)
whose ytt output is the unmutated root's output (a file the root does not render, a branch it
does not take) is not a defect of that root: it is skipped, and counted apart. Mutants of the
code classes count in every branch, taken or not.

Classes: dv-typo (a `data.values` path), value-type (a values file scalar of another type),
annotation-typo, module-attr (a `@ytt:` module member), load-name, wrong-args (a call with one
more argument), k8s-field (a manifest key), k8s-type (a manifest number as a string),
overlay-selector (a string of an overlay's `by=` matcher), indentation (a manifest key moved one
level out). k8s-field, k8s-type and indentation change only YAML documents with a top-level `kind:` (Kubernetes
objects of built-in kinds), not fragments that end up as text inside one.

usage: scripts/recall.py [--bin target/release/yttlint] [--ytt ytt] [--corpus ../shared/corpus] [--all-kinds]
                         [--seed 1] [--per-class 12] [--class NAME] [--verbose]
"""
import argparse
import csv
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE_EXT = (".yml", ".yaml", ".star", ".txt")


def swap_typo(word, rng):
    """A realistic one-edit typo of `word`: a dropped, doubled or swapped letter."""
    if len(word) < 3:
        return word + word[-1]
    i = rng.randrange(1, len(word) - 1)
    kind = rng.choice(["drop", "double", "swap"])
    if kind == "drop":
        return word[:i] + word[i + 1:]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    if word[i] == word[i + 1]:
        return word[:i] + word[i + 1:]
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


# Each mutator gets (text, rng) and returns (new_text, line) or None when the file has no site.
def m_dv_typo(text, rng):
    sites = [m for m in re.finditer(r"data\.values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)", text)]
    if not sites:
        return None
    m = rng.choice(sites)
    parts = m.group(1).split(".")[1:]
    k = rng.randrange(len(parts))
    if len(parts[k]) < 3:
        return None
    parts[k] = swap_typo(parts[k], rng)
    new = "data.values." + ".".join(parts)
    return text[: m.start()] + new + text[m.end():], text.count("\n", 0, m.start()) + 1


def m_value_type(text, rng):
    if "@data/values" not in text:
        return None
    sites = [m for m in re.finditer(r"(?m)^(\s*[A-Za-z_][\w-]*:\s+)(\d+|true|false)\s*$", text)]
    if not sites:
        return None
    m = rng.choice(sites)
    new = m.group(1) + ('"not-a-number"' if m.group(2)[0].isdigit() else "42")
    return text[: m.start()] + new + text[m.end():], text.count("\n", 0, m.start()) + 1


ANNOTATIONS = {
    "overlay/match": ["overlay/mach", "overlay/macth"],
    "overlay/replace": ["overlay/replase", "overlay/replce"],
    "overlay/remove": ["overlay/delete", "overlay/remov"],
    "overlay/merge": ["overlay/marge"],
    "data/values": ["data/value"],
    "data/values-schema": ["data/value-schema", "data/values-shema"],
    "overlay/match-child-defaults": ["overlay/match-child-default"],
    "schema/nullable": ["schema/nulable"],
    "schema/desc": ["schema/description"],
}


def m_annotation(text, rng):
    sites = [m for m in re.finditer(r"#@([a-z]+/[a-z-]+)", text) if m.group(1) in ANNOTATIONS]
    if not sites:
        return None
    m = rng.choice(sites)
    new = "#@" + rng.choice(ANNOTATIONS[m.group(1)])
    return text[: m.start()] + new + text[m.end():], text.count("\n", 0, m.start()) + 1


def m_module_attr(text, rng):
    mods = ("struct", "overlay", "json", "yaml", "base64", "assert", "regexp", "url", "sha256")
    sites = [m for m in re.finditer(r"\b(%s)\.([a-z_]{4,})\(" % "|".join(mods), text)]
    if not sites:
        return None
    m = rng.choice(sites)
    new = m.group(1) + "." + swap_typo(m.group(2), rng) + "("
    return text[: m.start()] + new + text[m.end():], text.count("\n", 0, m.start()) + 1


def typo_in_group(text, sites, group, rng):
    """A typo in `group` of one of the regex matches `sites`, and its line; None without one."""
    if not sites:
        return None
    m = rng.choice(sites)
    s, e = m.span(group)
    return text[:s] + swap_typo(m.group(group), rng) + text[e:], text.count("\n", 0, s) + 1


def m_load_name(text, rng):
    sites = [m for m in re.finditer(r'load\("[^"]+",\s*"([A-Za-z_]\w{2,})"', text)]
    return typo_in_group(text, sites, 1, rng)


def m_wrong_args(text, rng):
    defs = {m.group(1): m.group(2) for m in re.finditer(r"(?m)^\s*def (\w+)\(([^)]*)\):", text)}
    simple = {n for n, a in defs.items() if "*" not in a and "=" not in a}
    sites = [m for m in re.finditer(r"\b(\w+)\(([^()\n]*)\)", text)
             if m.group(1) in simple and not text[: m.start()].rstrip().endswith("def")]
    if not sites:
        return None
    m = rng.choice(sites)
    args = m.group(2).strip()
    new = "%s(%s)" % (m.group(1), (args + ", " if args else "") + "None")
    return text[: m.start()] + new + text[m.end():], text.count("\n", 0, m.start()) + 1


K8S_KEYS = ["image", "containerPort", "replicas", "selector", "imagePullPolicy", "serviceAccountName",
            "matchLabels", "targetPort", "restartPolicy", "volumeMounts", "mountPath", "namespace"]


BUILTIN_KINDS = ("Deployment", "Service", "DaemonSet", "StatefulSet", "ConfigMap", "Secret", "Ingress",
                 "ServiceAccount", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "Job",
                 "CronJob", "Pod", "Namespace", "NetworkPolicy", "PersistentVolumeClaim")


# Keys of the custom resources of the built-in catalog (Cluster API, cert-manager, Contour,
# Carvel, ...), mutated too with --all-kinds.
CATALOG_KEYS = ["clusterName", "secretName", "issuerRef", "dnsNames", "refName", "infrastructureRef",
                "controlPlaneRef", "virtualhost", "services", "conditions", "packageRef",
                "serviceAccountName", "kubeadmConfigSpec", "machineTemplate", "clusterNetwork"]

ALL_KINDS = False


def builtin_manifest(text):
    """Text with a built-in kind and no CRD: custom kinds are checked only with their CRD (or,
    with --all-kinds, any object: the built-in catalog knows the ecosystem's kinds)."""
    kinds = re.findall(r"(?m)^kind:\s*(\w+)", text)
    if ALL_KINDS:
        return bool(kinds)
    return kinds and all(k in BUILTIN_KINDS for k in kinds)


def in_object(text, offset):
    """Whether `offset` lies in a YAML document with a top-level `kind:`: a Kubernetes object,
    not a fragment (a `def` body that becomes a package's values inside a Secret, say)."""
    starts = [0] + [m.end() for m in re.finditer(r"(?m)^---.*$", text)]
    start = max(s for s in starts if s <= offset)
    nxt = re.search(r"(?m)^---", text[offset:])
    end = offset + nxt.start() if nxt else len(text)
    return re.search(r"(?m)^kind:\s*\w+", text[start:end]) is not None


def m_k8s_field(text, rng):
    if not builtin_manifest(text):
        return None
    keys = K8S_KEYS + (CATALOG_KEYS if ALL_KINDS else [])
    sites = [m for m in re.finditer(r"(?m)^(\s*-?\s*)(%s):" % "|".join(keys), text)
             if in_object(text, m.start())]
    return typo_in_group(text, sites, 2, rng)


def m_k8s_type(text, rng):
    if not builtin_manifest(text):
        return None
    # Not `port`/`targetPort`: under probes and Services many of them take a string too.
    sites = [m for m in re.finditer(r"(?m)^(\s*-?\s*(?:containerPort|replicas|periodSeconds|"
                                    r"initialDelaySeconds|timeoutSeconds):\s+)(\d+)\s*$", text)
             if in_object(text, m.start())]
    if not sites:
        return None
    m = rng.choice(sites)
    new = '%s"%s"' % (m.group(1), m.group(2))
    return text[: m.start()] + new + text[m.end():], text.count("\n", 0, m.start()) + 1


def m_overlay_selector(text, rng):
    picks = []
    for m in re.finditer(r"#@overlay/match by=overlay\.subset\((.*)\)", text):
        for s in re.finditer(r':\s*"([A-Za-z][\w.-]{3,})"', m.group(1)):
            picks.append((m.start(1) + s.start(1), m.start(1) + s.end(1), s.group(1)))
    if not picks:
        return None
    s, e, word = rng.choice(picks)
    return text[:s] + swap_typo(word, rng) + text[e:], text.count("\n", 0, s) + 1


def m_indentation(text, rng):
    if not builtin_manifest(text):
        return None
    lines = text.split("\n")
    sites = []
    for i in range(1, len(lines) - 1):
        m = re.match(r"^( {4,})([A-Za-z]\w*): \S", lines[i])
        nxt = re.match(r"^( *)", lines[i + 1]).group(1)
        if m and "#@" not in lines[i] and "#@" not in lines[i - 1] and len(nxt) < len(m.group(1)):
            prev = re.match(r"^( *)", lines[i - 1]).group(1)
            offset = sum(len(x) + 1 for x in lines[:i])
            if (len(prev) == len(m.group(1)) and not lines[i - 1].strip().startswith("-")
                    and in_object(text, offset)):
                sites.append(i)
    if not sites:
        return None
    i = rng.choice(sites)
    lines[i] = lines[i][2:]
    return "\n".join(lines), i + 1


CLASSES = {
    "dv-typo": m_dv_typo,
    "value-type": m_value_type,
    "annotation-typo": m_annotation,
    "module-attr": m_module_attr,
    "load-name": m_load_name,
    "wrong-args": m_wrong_args,
    "k8s-field": m_k8s_field,
    "k8s-type": m_k8s_type,
    "overlay-selector": m_overlay_selector,
    "indentation": m_indentation,
}
# Defects of the output: a mutant that leaves ytt's output as it was is not one. The other
# classes are defects of the code even in a branch no scenario takes (they fail when it does).
OUTPUT_CLASSES = {"value-type", "k8s-field", "k8s-type", "overlay-selector", "indentation"}
ANYWHERE = {"value-type", "overlay-selector", "dv-typo"}


def lint(binary, repo):
    out = subprocess.run([binary, "--no-cache", "--exit-zero", "--format", "json", "."], cwd=repo,
                         capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        return None
    return {(d["rule"], d["severity"], d["file"], d["line"], d["message"])
            for d in report["diagnostics"] if d["severity"] in ("error", "warning")}


def ytt_render(ytt, repo, args):
    """ytt's output of the root, or None when it fails."""
    out = subprocess.run([ytt] + args, cwd=repo, capture_output=True, timeout=300)
    return out.stdout if out.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(HERE, "target/release/yttlint"))
    ap.add_argument("--ytt", default=shutil.which("ytt") or "ytt")
    ap.add_argument("--corpus", default=os.path.join(HERE, "../shared/corpus"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-class", type=int, default=12)
    ap.add_argument("--class", dest="only", action="append")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--all-kinds", action="store_true",
                    help="manifest classes mutate objects of any kind, custom resources too")
    a = ap.parse_args()
    global ALL_KINDS
    ALL_KINDS = a.all_kinds
    if not os.path.exists(a.bin):
        sys.exit("no yttlint at %s (cargo build --release)" % a.bin)
    if not shutil.which(a.ytt) and not os.path.exists(a.ytt):
        sys.exit("no ytt at %s (--ytt PATH)" % a.ytt)
    rng = random.Random(a.seed)
    rows = [r for r in csv.DictReader(open(os.path.join(a.corpus, "manifest.tsv")), delimiter="\t")
            if r["exit_status"] == "0"]
    rows.sort(key=lambda r: r["id"])
    # The candidate sites: (class, root row, file) for every file where the mutator applies.
    candidates = {c: [] for c in CLASSES}
    for row in rows:
        root = os.path.join(a.corpus, "roots", row["id"])
        for dirpath, _, files in os.walk(root):
            for f in sorted(files):
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                if not f.endswith(TEMPLATE_EXT) or rel == "expected.yml" or rel.startswith("tests"):
                    continue
                try:
                    text = open(path, encoding="utf-8").read()
                except (UnicodeDecodeError, OSError):
                    continue
                for c, mutate in CLASSES.items():
                    if mutate(text, random.Random(0)) is not None:
                        candidates[c].append((row, rel))
    tally = {}
    baselines = {}
    work = tempfile.mkdtemp(prefix="recall-")
    try:
        for c, mutate in CLASSES.items():
            if a.only and c not in a.only:
                continue
            sites = candidates[c]
            rng.shuffle(sites)
            t = tally.setdefault(c, {"mutants": 0, "ytt": 0, "error": 0, "warning": 0, "lost": 0,
                                    "no effect": 0})
            for row, rel in sites:
                if t["mutants"] >= a.per_class:
                    break
                src = os.path.join(a.corpus, "roots", row["id"])
                args = shlex.split(row["ytt_cmd"])[1:]
                if row["id"] not in baselines:
                    base = os.path.join(work, "base", row["id"])
                    shutil.copytree(src, base)
                    write_config(base, args)
                    baselines[row["id"]] = (lint(a.bin, base) or set(), ytt_render(a.ytt, base, args))
                text = open(os.path.join(src, rel), encoding="utf-8").read()
                mutated = mutate(text, rng)
                if mutated is None or mutated[0] == text:
                    continue
                new_text, line = mutated
                copy = os.path.join(work, "m", "%s-%d" % (c, t["mutants"]))
                shutil.copytree(src, copy)
                write_config(copy, args)
                open(os.path.join(copy, rel), "w", encoding="utf-8").write(new_text)
                rendered = ytt_render(a.ytt, copy, args)
                base_findings, base_output = baselines[row["id"]]
                if c in OUTPUT_CLASSES and rendered is not None and rendered == base_output:
                    # The change does not reach ytt's output (a file this root does not
                    # render, or a branch it does not take): not a defect of this root.
                    t["no effect"] += 1
                    shutil.rmtree(copy)
                    continue
                fails = rendered is None
                found = lint(a.bin, copy)
                new = sorted((found or set()) - base_findings)
                near = [d for d in new if c in ANYWHERE or (d[2] == rel and abs(d[3] - line) <= 3)
                        or (fails and d[1] == "error")]
                t["mutants"] += 1
                t["ytt"] += fails
                sev = "error" if any(d[1] == "error" for d in near) else "warning" if near else None
                if sev:
                    t[sev] += 1
                elif fails:
                    t["lost"] += 1
                if a.verbose or (fails and not sev):
                    print("%-16s %-5s %-7s %s/%s:%d %s" % (c, "fails" if fails else "ok",
                          sev or "MISSED", row["id"], rel, line,
                          "; ".join("%s %s:%d" % (d[0], d[2], d[3]) for d in new[:3])))
                shutil.rmtree(copy)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print("| class | mutants | ytt fails | yttlint catches | as error | as warning "
          "| lost (ytt fails, yttlint silent) | skipped: output unchanged |")
    print("|---|---|---|---|---|---|---|---|")
    total = {"mutants": 0, "ytt": 0, "error": 0, "warning": 0, "lost": 0, "no effect": 0}
    for c, t in tally.items():
        for k in total:
            total[k] += t[k]
        print_row(c, t)
    print_row("all", total)


def print_row(name, t):
    n = max(t["mutants"], 1)
    caught = t["error"] + t["warning"]
    print("| %s | %d | %d (%d %%) | %d (%d %%) | %d | %d | %d | %d |" % (
        name, t["mutants"], t["ytt"], 100 * t["ytt"] // n, caught, 100 * caught // n,
        t["error"], t["warning"], t["lost"], t["no effect"]))


def write_config(repo, args):
    with open(os.path.join(repo, ".yttlint.yaml"), "w") as f:
        f.write("roots:\n  - path: .\n    args: %s\n" % json.dumps(args))


if __name__ == "__main__":
    main()
