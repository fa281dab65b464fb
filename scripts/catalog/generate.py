#!/usr/bin/env python3
"""Writes yttlint's built-in schemas from the upstream sources in scripts/catalog/sources.json.

Outputs (nothing fetched is committed; these are what the script makes of it):

- src/kubernetes/data/kubernetes.bin: the built-in kinds of every Kubernetes version listed,
  their definitions stored once across versions (deduplicated by content), and the table of
  deprecated and removed API versions; one zlib stream of JSON.
- src/kubernetes/data/catalog.bin: the CustomResourceDefinitions of the ecosystem's projects,
  one zlib stream per distinct schema (decompressed only when an object of its kind is
  checked) after a zlib-compressed index: `YTTCAT1\\n`, the index's length (u32, little
  endian), the index, the schemas.
- docs/catalog.md: each entry's source repository, version and license.

Inputs are git mirrors of the source repositories (`--mirrors DIR`, one `OWNER+NAME/repo` git
directory per repository, as the `fetch` tool of the project's sessions lays them out; any
clone with the tags works with `--mirror-layout plain`, DIR/NAME). Kubernetes versions come from
kubernetes-client/python's copy of each release's OpenAPI document; the newest version(s)
k8s-openapi knows and the client does not yet have come from scripts/k8s-schemas (run with
`--k8s-openapi VERSION=FILE`, the file that crate prints).

Schemas keep what validation reads: descriptions, examples, CEL rules (`x-kubernetes-
validations`) and list and patch hints are dropped.

usage: scripts/catalog/generate.py --mirrors /work/.mirror --k8s-openapi 1.37=FILE [--check]
"""
import argparse
import io
import json
import os
import re
import struct
import subprocess
import sys
import zlib

import yaml

class Loader(yaml.SafeLoader):
    """YAML 1.1 as Kubernetes reads it, except that `=` is the string it is to Go."""


Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in rs if tag != "tag:yaml.org,2002:value"]
    for ch, rs in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "src", "kubernetes", "data")

# The keys a schema node keeps; anything else (descriptions, examples, CEL rules, list and
# patch hints, defaults) is dropped.
KEEP = {
    "type", "properties", "items", "additionalProperties", "required", "enum", "format",
    "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
    "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "multipleOf",
    "uniqueItems", "nullable", "allOf", "anyOf", "oneOf", "not", "$ref",
    "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
}

INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"


def slim(node):
    """`node` with only the validating keys, in every schema below it."""
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k not in KEEP:
            continue
        if k == "properties" and isinstance(v, dict):
            v = {name: slim(p) for name, p in v.items()}
        elif k in ("items", "additionalProperties", "not"):
            v = slim(v)
        elif k in ("allOf", "anyOf", "oneOf") and isinstance(v, list):
            v = [slim(s) for s in v]
        elif k == "required" and isinstance(v, list):
            v = sorted(v)
        out[k] = v
    return out


def canon(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Mirrors:
    def __init__(self, root, layout):
        self.root, self.layout = root, layout

    def git_dir(self, repo):
        if self.layout == "plain":
            return os.path.join(self.root, repo.split("/")[1])
        return os.path.join(self.root, repo.replace("/", "+"), "repo")

    def git(self, repo, *args):
        return subprocess.run(["git", "-C", self.git_dir(repo), *args], check=True,
                              capture_output=True).stdout

    def show(self, repo, tag, path):
        return self.git(repo, "show", f"{tag}:{path}")

    def files(self, repo, tag, path):
        if not path.endswith("/"):
            return [path]
        names = self.git(repo, "ls-tree", "--name-only", f"{tag}:{path}").decode().split()
        return [path + n for n in sorted(names) if n.endswith((".yaml", ".yml"))]

    def commit(self, repo, tag):
        return self.git(repo, "rev-list", "-n1", tag).decode().strip()


# ---------------------------------------------------------------------------------------------
# Kubernetes versions


def references(node, out):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/definitions/"):
                out.append(v[len("#/definitions/"):])
            else:
                references(v, out)
    elif isinstance(node, list):
        for v in node:
            references(v, out)


def version_of_swagger(doc):
    """(kinds, definitions) of one release's OpenAPI document, as k8s-openapi writes them."""
    defs = doc["definitions"]
    kinds = []
    for name, d in defs.items():
        if name.startswith("io.k8s.apimachinery.") or name.endswith("List"):
            continue
        for gvk in d.get("x-kubernetes-group-version-kind", []):
            group, version = gvk.get("group", ""), gvk["version"]
            api_version = f"{group}/{version}" if group else version
            kinds.append((api_version, gvk["kind"], name))
    return sorted(set(kinds)), {n: normalise(n, d) for n, d in defs.items()}


def normalise(name, definition):
    if name in (INT_OR_STRING, QUANTITY):
        return {"x-kubernetes-int-or-string": True}
    return slim(definition)


def reachable(kinds, defs):
    todo = [k[2] for k in kinds] + ["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]
    seen = {}
    while todo:
        n = todo.pop()
        if n in seen or n not in defs:
            continue
        seen[n] = defs[n]
        references(defs[n], todo)
    return seen


def kubernetes(mirrors, sources, openapi_files):
    k = sources["kubernetes"]
    versions = []
    for version, tag in k["versions"].items():
        doc = json.loads(mirrors.show(k["repo"], tag, k["file"]))
        kinds, defs = version_of_swagger(doc)
        versions.append((version, f"{k['repo']} {tag}", kinds, defs))
    for spec in openapi_files:
        version, path = spec.split("=", 1)
        doc = json.load(open(path))
        kinds = sorted(tuple(row) for row in doc["kinds"])
        defs = {n: normalise(n, d) for n, d in doc["definitions"].items()}
        # k8s-openapi requires `metadata` of every resource (a Rust field that is not an
        # `Option`); the API's own document does not.
        for _, _, name in kinds:
            req = [r for r in defs[name].get("required", []) if r != "metadata"]
            if req:
                defs[name]["required"] = req
            else:
                defs[name].pop("required", None)
        versions.append((version, k["k8s-openapi"]["crate"], kinds, defs))
    versions.sort(key=lambda v: [int(p) for p in v[0].split(".")])
    texts, index, out_versions = [], {}, []
    for version, source, kinds, defs in versions:
        table = {}
        for name, d in sorted(reachable(kinds, defs).items()):
            text = canon(d)
            if text not in index:
                index[text] = len(texts)
                texts.append(d)
            table[name] = index[text]
        out_versions.append({"version": version, "source": source,
                             "kinds": [list(k) for k in kinds], "definitions": table})
    return {"versions": out_versions, "definitions": texts}


def deprecations(mirrors, sources, kube):
    """[apiVersion, kind, deprecated-in, removed-in, replacement] of Kubernetes' own APIs:
    pluto's table, plus every kind a compiled-in version serves and the next one does not."""
    d = sources["deprecations"]
    table = yaml.safe_load(mirrors.show(d["repo"], d["tag"], d["file"]))
    rows = {}
    fixes = d.get("corrections", {})
    for row in table["deprecated-versions"]:
        if row.get("component") != "k8s":
            continue
        row = {**row, **fixes.get(f"{row['version']} {row['kind']}", {})}
        minor = lambda v: ".".join(v.lstrip("v").split(".")[:2]) if v else ""
        rows[(row["version"], row["kind"])] = [row["version"], row["kind"],
                                               minor(row.get("deprecated-in")),
                                               minor(row.get("removed-in")),
                                               row.get("replacement-api") or ""]
    vs = kube["versions"]
    for older, newer in zip(vs, vs[1:]):
        served = {(a, k) for a, k, _ in newer["kinds"]}
        for a, k, _ in older["kinds"]:
            if (a, k) in served or (a, k) in rows:
                continue
            others = sorted(av for av, kk, _ in newer["kinds"] if kk == k)
            rows[(a, k)] = [a, k, "", newer["version"], others[-1] if others else ""]
    return [rows[key] for key in sorted(rows)]


# ---------------------------------------------------------------------------------------------
# CRDs


def crd_versions(doc):
    """(group, kind, [(version, schema or None, prune)]) of a CRD document, None otherwise."""
    if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
        return None
    if not str(doc.get("apiVersion", "")).startswith("apiextensions.k8s.io/"):
        return None
    spec = doc.get("spec") or {}
    group, kind = spec.get("group"), (spec.get("names") or {}).get("kind")
    if not group or not kind:
        return None
    v1beta1 = doc["apiVersion"].endswith("v1beta1")
    preserve = spec.get("preserveUnknownFields")
    prune = preserve is not True and not (v1beta1 and preserve is None)
    shared = ((spec.get("validation") or {}).get("openAPIV3Schema"))
    out = []
    for v in spec.get("versions") or []:
        if v.get("served") is False or not v.get("name"):
            continue
        schema = ((v.get("schema") or {}).get("openAPIV3Schema")) or shared
        out.append((v["name"], schema, prune))
    if not out and spec.get("version"):
        out.append((spec["version"], shared, prune))
    return group, kind, out


def crds_of(mirrors, src, tag):
    """The CRD documents one source gives at one tag: (file, document)."""
    if "written" in src:
        return [(src["written"], d) for d in yaml.load_all(open(os.path.join(ROOT, src["written"])), Loader=Loader)]
    out = []
    for path in src["paths"]:
        try:
            files = mirrors.files(src["repo"], tag, path)
        except subprocess.CalledProcessError:
            continue
        for f in files:
            try:
                text = mirrors.show(src["repo"], tag, f).decode()
            except subprocess.CalledProcessError:
                continue
            if "CustomResourceDefinition" not in text:
                continue
            try:
                docs = list(yaml.load_all(text, Loader=Loader))
            except yaml.YAMLError as e:
                print(f"warning: {src['repo']} {tag} {f}: {e}", file=sys.stderr)
                continue
            out.extend((f, d) for d in docs)
    return out


def catalog(mirrors, sources):
    entries = {}  # (group, version, kind) -> (source index, schema, prune, config)
    source_rows = []
    for src in sources["crds"]:
        i = len(source_rows)
        kinds = set()
        for tag in src["tags"]:  # newest first: a kind an older tag adds only fills a gap
            for _, doc in crds_of(mirrors, src, tag):
                found = crd_versions(doc)
                if not found:
                    continue
                group, kind, versions = found
                group, kind = rename(src, group, kind)
                for version, schema, prune in versions:
                    key = (group, version, kind)
                    if key in entries:
                        continue
                    config = "written" in src
                    body = slim(schema) if isinstance(schema, dict) else None
                    entries[key] = (i, body, bool(prune and body is not None), config, tag)
                    kinds.add(key)
        tags = sorted({entries[k][4] for k in kinds}, key=lambda t: src["tags"].index(t))
        commits = [] if "written" in src else [mirrors.commit(src["repo"], t) for t in tags]
        source_rows.append({"name": src["name"], "repo": src["repo"], "tags": tags,
                            "commits": commits, "license": src["license"],
                            "from": src.get("from", ""), "written": src.get("written", ""),
                            "kinds": sorted(f"{g}/{v} {k}" for g, v, k in kinds)})
    return entries, source_rows


def rename(src, group, kind):
    to = src.get("rename", {}).get(f"{group}/{kind}")
    return tuple(to.split("/")) if to else (group, kind)


def write_catalog(entries, source_rows, path):
    blobs, blob_index, rows = [], {}, []
    for (group, version, kind), (src, body, prune, config, _) in sorted(entries.items()):
        text = canon(body)
        if text not in blob_index:
            blob_index[text] = len(blobs)
            blobs.append(zlib.compress(text.encode(), 9))
        rows.append([group, version, kind, src, blob_index[text], prune, config])
    offsets, at = [], 0
    for b in blobs:
        offsets.append([at, len(b)])
        at += len(b)
    index = {"sources": [{k: s[k] for k in ("name", "repo", "tags", "license")} for s in source_rows],
             "entries": rows, "blobs": offsets}
    packed = zlib.compress(canon(index).encode(), 9)
    with open(path, "wb") as f:
        f.write(b"YTTCAT1\n")
        f.write(struct.pack("<I", len(packed)))
        f.write(packed)
        for b in blobs:
            f.write(b)
    raw = sum(len(t) for t in blob_index)
    return len(rows), len(blobs), raw, os.path.getsize(path)


def write_docs(source_rows, kube, apis, path):
    out = io.StringIO()
    w = out.write
    w("# The built-in schemas and where they come from\n\n")
    w("Generated by `scripts/catalog/generate.py` from `scripts/catalog/sources.json`; do not edit.\n")
    w("yttlint checks a rendered object against the schema of its `(apiVersion, kind)`: the\n")
    w("built-in kinds of the Kubernetes version chosen (`kubernetes.version`,\n")
    w("`--kubernetes-version`), a CustomResourceDefinition of the repository, else the catalog\n")
    w("below. Schemas keep only what validation reads (no descriptions, examples or CEL rules).\n\n")
    w("## Kubernetes versions\n\n| version | kinds | source |\n|---|---|---|\n")
    for v in kube["versions"]:
        w(f"| {v['version']} | {len(v['kinds'])} | {v['source']} |\n")
    w(f"\n{len(kube['definitions'])} distinct definitions across the versions.\n")
    w("kubernetes-client/python is Apache-2.0, as is k8s-openapi (MIT or Apache-2.0).\n\n")
    w(f"Deprecated and removed API versions ({len(apis)} rows): FairwindsOps/pluto's\n")
    w("`versions.yaml` (Apache-2.0), the `k8s` rows, plus every kind one compiled-in version serves\n")
    w("and the next does not.\n\n")
    w("## CustomResourceDefinitions\n\n| project | repository | version | license | kinds |\n|---|---|---|---|---|\n")
    for s in source_rows:
        version = ", ".join(s["tags"])
        if s["written"]:
            version = f"{version} (schema written for yttlint from `{s['from']}`: `{s['written']}`)"
        kinds = ", ".join(s["kinds"])
        w(f"| {s['name']} | [{s['repo']}](https://github.com/{s['repo']}) | {version} | {s['license']} | {kinds} |\n")
    open(path, "w").write(out.getvalue())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirrors", required=True)
    ap.add_argument("--mirror-layout", choices=["fetch", "plain"], default="fetch")
    ap.add_argument("--k8s-openapi", action="append", default=[],
                    help="VERSION=FILE: scripts/k8s-schemas' output for that version")
    a = ap.parse_args()
    sources = json.load(open(os.path.join(HERE, "sources.json")))
    mirrors = Mirrors(a.mirrors, a.mirror_layout)
    kube = kubernetes(mirrors, sources, a.k8s_openapi)
    apis = deprecations(mirrors, sources, kube)
    kube["apis"] = apis
    text = canon(kube).encode()
    packed = zlib.compress(text, 9)
    open(os.path.join(DATA, "kubernetes.bin"), "wb").write(packed)
    print(f"kubernetes.bin: {len(kube['versions'])} versions, {len(kube['definitions'])} "
          f"definitions, {len(apis)} API rows, {len(text)} bytes of JSON, {len(packed)} compressed")
    entries, source_rows = catalog(mirrors, sources)
    n, blobs, raw, size = write_catalog(entries, source_rows, os.path.join(DATA, "catalog.bin"))
    print(f"catalog.bin: {n} kinds, {blobs} distinct schemas, {raw} bytes of JSON, {size} compressed")
    write_docs(source_rows, kube, apis, os.path.join(ROOT, "docs", "catalog.md"))


if __name__ == "__main__":
    main()
