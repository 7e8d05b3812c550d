#!/usr/bin/env python3
"""Finds import circles in tool-core's sources: between files and between top-level modules.

    python3 scripts/import_cycles.py [--quiet]

A file imports another when it names an item through a `crate::a::b` path (in `use` or inline)
or `super::x`; a path is resolved to the longest existing module file. Files that are a module's
root (`mod.rs`, or `a.rs` beside a folder `a/`) only re-export; their edges to children are left
out, so a circle means two files really depend on each other. Prints every strongly connected
group of more than one file, and of top-level modules; exits 1 if there is any.
"""
import os, re, sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tool-core", "src")

def module_of(path):
    rel = os.path.relpath(path, ROOT)[:-3]
    parts = rel.split(os.sep)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)

def main():
    files = {}
    for d, _, fs in os.walk(ROOT):
        for f in fs:
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                files[module_of(p)] = p
    roots = {m for m in files if any(o[:len(m)] == m and len(o) > len(m) for o in files)}
    def resolve(segs):
        for n in range(len(segs), 0, -1):
            if tuple(segs[:n]) in files:
                return tuple(segs[:n])
        return None
    edges = defaultdict(set)
    for mod, path in files.items():
        src = open(path, encoding="utf-8").read()
        src = re.sub(r"//[^\n]*", "", src)
        src = re.sub(r"#\[cfg\(test\)\]\s*mod tests\s*\{.*", "", src, flags=re.S)
        targets = set()
        for m in re.finditer(r"\b(crate|super)((?:::\w+)+)", src):
            segs = m.group(2).split("::")[1:]
            # `super::` is the parent of this file's module.
            base = [] if m.group(1) == "crate" else list(mod[:-1])
            t = resolve(base + segs)
            if t:
                targets.add(t)
        # `use crate::a::{b, c::d}` groups
        for m in re.finditer(r"use\s+crate::([\w:]*)\{([^;]*)\};", src, re.S):
            prefix = [s for s in m.group(1).split("::") if s]
            for item in re.split(r",", re.sub(r"\{[^}]*\}", "", m.group(2))):
                item = item.strip().split(" as ")[0]
                t = resolve(prefix if item == "self" else prefix + item.split("::")) if item else None
                if t:
                    targets.add(t)
        for t in targets:
            if t != mod and not (mod in roots and t[:len(mod)] == mod):
                edges[mod].add(t)
    def sccs(nodes, edges):
        index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
        sys.setrecursionlimit(10000)
        def visit(v):
            index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
            for w in edges.get(v, ()):
                if w not in index:
                    visit(w); low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v: break
                if len(comp) > 1: out.append(sorted(comp))
        for v in nodes:
            if v not in index: visit(v)
        return out
    file_cycles = sccs(list(files), edges)
    top = defaultdict(set)
    for a, ts in edges.items():
        for b in ts:
            if a[:1] != b[:1] and a and b:
                top[a[:1]].add(b[:1])
    top_cycles = sccs(sorted({m[:1] for m in files if m}), top)
    for c in file_cycles:
        print("files:   " + " <-> ".join("/".join(m) for m in c))
    for c in top_cycles:
        print("modules: " + " <-> ".join("/".join(m) for m in c))
    print(f"{len(file_cycles)} file circles, {len(top_cycles)} module circles")
    sys.exit(1 if file_cycles or top_cycles else 0)

if __name__ == "__main__":
    main()
