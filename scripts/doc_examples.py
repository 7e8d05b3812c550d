#!/usr/bin/env python3
"""Counts tool-core's public items and those whose rustdoc has no example.

    python3 scripts/doc_examples.py [--features F | --all-features] [--list]

Builds rustdoc's JSON output (an unstable rustdoc format, enabled on the stable toolchain with
RUSTC_BOOTSTRAP=1 for this measurement only) and counts the items reachable from the crate root:
modules, structs, enums, traits, functions, macros, type aliases, constants and statics, plus
the public methods of their inherent impls. An item "has an example" when its doc comment holds
a code block (```), the same test rustdoc's `missing_doc_code_examples` lint applies.
"""
import json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    subprocess.run(["cargo", "rustdoc", "-q", "-p", "tool-core", "--lib", *args, "--",
                    "-Z", "unstable-options", "--output-format", "json"],
                   cwd=ROOT, env=env, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    doc = json.load(open(os.path.join(target, "doc", "tool_core.json")))
    index, paths = doc["index"], doc["paths"]
    kinds = {"module", "struct", "enum", "trait", "function", "macro", "type_alias",
             "constant", "static", "proc_attribute", "proc_derive"}
    public = {}
    for id_, summary in paths.items():
        if summary.get("crate_id") == 0 and summary.get("kind") in kinds and id_ in index:
            public[id_] = "::".join(summary["path"])
    # Public methods of inherent impls of public types.
    for id_, name in list(public.items()):
        item = index[id_]
        inner = item.get("inner", {})
        for kind in ("struct", "enum"):
            if kind in inner:
                for impl_id in inner[kind].get("impls", []):
                    impl = index.get(str(impl_id), {}).get("inner", {}).get("impl", {})
                    if impl.get("trait") is not None:
                        continue
                    for m in impl.get("items", []):
                        mi = index.get(str(m))
                        if mi and mi.get("visibility") == "public" and "function" in mi.get("inner", {}):
                            public[str(m)] = f"{name}::{mi['name']}"
    missing = sorted(name for id_, name in public.items()
                     if "```" not in (index[id_].get("docs") or ""))
    if "--list" in sys.argv:
        print("\n".join(missing))
    print(f"{len(public)} public items, {len(public) - len(missing)} with an example, "
          f"{len(missing)} without")

if __name__ == "__main__":
    main()
