#!/usr/bin/env python3
"""Regenerates src/kubevirt/types.txt, the field table of KubeVirt's VirtualMachine Go types.

The KubeVirt template validator evaluates its JSONPaths over Go structs, so whether a path
"exists" depends on the Go type of every field on the way (pointer, struct, slice, map, scalar).
This script reads the Go sources of kubevirt.io/api core/v1 (a checkout of github.com/kubevirt/api)
and writes, for every struct reachable from VirtualMachine.spec, one line per field:

    struct NAME
      JSON_NAME GO_NAME TYPE

TYPE is `*T`, `[]T`, `map[string]T`, a Go basic type, `Quantity` (resource.Quantity), the name of
another struct or alias, or `opaque` (a type from outside kubevirt.io/api that the linter does not
model; evaluated from the YAML as it is). Embedded (`json:",inline"`) structs are flattened.
Named basic types are written `alias NAME BASIC`.

Usage: scripts/kubevirt_schema.py API_CHECKOUT [COMMIT] > src/kubevirt/types.txt
"""

import os
import re
import sys

BASIC = {
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "float32", "float64", "byte",
}

# Types from other packages that matter for the validator.
EXTERNAL = {
    "resource.Quantity": "Quantity",
    "v1.ResourceList": "map[string]Quantity",
    "k8sv1.ResourceList": "map[string]Quantity",
    "metav1.ObjectMeta": "ObjectMeta",
    "types.UID": "string",
    "k8sv1.ResourceName": "string",
    "v1.ResourceName": "string",
    "k8sv1.DNSPolicy": "string",
    "k8sv1.PullPolicy": "string",
    "v1.PullPolicy": "string",
}

# metav1.ObjectMeta, written by hand (it lives in k8s.io/apimachinery).
OBJECT_META = """struct ObjectMeta
  name Name string
  generateName GenerateName string
  namespace Namespace string
  selfLink SelfLink string
  uid UID string
  resourceVersion ResourceVersion string
  generation Generation int64
  creationTimestamp CreationTimestamp opaque
  deletionTimestamp DeletionTimestamp *opaque
  deletionGracePeriodSeconds DeletionGracePeriodSeconds *int64
  labels Labels map[string]string
  annotations Annotations map[string]string
  ownerReferences OwnerReferences []opaque
  finalizers Finalizers []string
  managedFields ManagedFields []opaque
struct VirtualMachine
  kind Kind string
  apiVersion APIVersion string
  metadata ObjectMeta ObjectMeta
  spec Spec VirtualMachineSpec
  status Status opaque"""

TYPE_START = re.compile(r"^type (\w+) (.*)$")
FIELD = re.compile(r"^\s*(\w+)\s+([^\s`]+)\s*(`[^`]*`)?\s*$")
EMBEDDED = re.compile(r"^\s*(\*?[\w.]+)\s*(`[^`]*`)?\s*$")
JSON_TAG = re.compile(r'json:"([^"]*)"')


def strip_comment(line):
    at = line.find("//")
    return line if at < 0 else line[:at]


def read_types(directory):
    """Returns (structs, aliases): structs maps a name to its raw field list."""
    structs, aliases = {}, {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".go") or name.endswith("_test.go"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            m = TYPE_START.match(lines[i])
            i += 1
            if not m:
                continue
            tname, rest = m.group(1), m.group(2).strip()
            if rest == "struct{}" or rest == "struct {}":
                structs[tname] = []
            elif rest.startswith("struct"):
                fields = []
                while i < len(lines) and lines[i] != "}":
                    fields.append(strip_comment(lines[i]))
                    i += 1
                structs[tname] = [f for f in fields if f.strip()]
            else:
                aliases[tname] = rest.split()[0]
    return structs, aliases


def tag_name(tag):
    if not tag:
        return None
    m = JSON_TAG.search(tag)
    if not m:
        return None
    return m.group(1).split(",")[0]


class Gen:
    def __init__(self, structs, aliases):
        self.structs = structs
        self.aliases = aliases
        self.needed = []
        self.seen = set()
        self.alias_out = {}

    def want(self, name):
        if name not in self.seen:
            self.seen.add(name)
            self.needed.append(name)

    def resolve(self, t):
        if t.startswith("*"):
            return "*" + self.resolve(t[1:])
        if t.startswith("[]"):
            return "[]" + self.resolve(t[2:])
        m = re.match(r"^map\[(\w+)\](.+)$", t)
        if m:
            return "map[string]" + self.resolve(m.group(2))
        if t in EXTERNAL:
            return EXTERNAL[t]
        if t in BASIC:
            return t
        if "." in t:
            return "opaque"
        if t in self.structs:
            self.want(t)
            return t
        if t in self.aliases:
            base = self.resolve(self.aliases[t])
            if base in BASIC:
                self.alias_out[t] = base
                return t
            return base
        return "opaque"

    def fields(self, name):
        direct, inline = [], []
        for raw in self.structs[name]:
            m = FIELD.match(raw)
            if m:
                go, typ, tag = m.group(1), m.group(2), m.group(3)
                json = tag_name(tag)
                if json == "":
                    inline.append((go, typ))
                    continue
                direct.append((json or "-", go, self.resolve(typ)))
                continue
            m = EMBEDDED.match(raw)
            if m:
                typ = m.group(1).lstrip("*")
                inline.append((typ.split(".")[-1], typ))
        out = list(direct)
        for _, typ in inline:
            if typ in self.structs:
                known = {f[0] for f in out} | {f[1] for f in out}
                for f in self.fields(typ):
                    if f[0] not in known and f[1] not in known:
                        out.append(f)
        return out


def main():
    directory = os.path.join(sys.argv[1], "core", "v1")
    commit = sys.argv[2] if len(sys.argv) > 2 else "unknown"
    structs, aliases = read_types(directory)
    gen = Gen(structs, aliases)
    gen.want("VirtualMachineSpec")
    blocks = []
    i = 0
    while i < len(gen.needed):
        name = gen.needed[i]
        i += 1
        lines = ["struct " + name]
        for json, go, typ in gen.fields(name):
            lines.append("  %s %s %s" % (json, go, typ))
        blocks.append("\n".join(lines))
    print("# KubeVirt VirtualMachine field types, generated by scripts/kubevirt_schema.py")
    print("# from github.com/kubevirt/api core/v1 at %s. Do not edit by hand." % commit)
    for name in sorted(gen.alias_out):
        print("alias %s %s" % (name, gen.alias_out[name]))
    print(OBJECT_META)
    for b in blocks:
        print(b)


if __name__ == "__main__":
    main()
