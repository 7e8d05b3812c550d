#!/usr/bin/env python3
"""Lists tool-core's public API as a user sees it, and checks it against the checked-in listing.

    python3 scripts/public_api.py            print the listing (all features)
    python3 scripts/public_api.py --write    regenerate tool-core/public-api.txt
    python3 scripts/public_api.py --check    exit 1, with a diff, if the API differs from it

Builds rustdoc's JSON output (an unstable rustdoc format, enabled on the stable toolchain with
RUSTC_BOOTSTRAP=1 for this measurement only, as scripts/doc_examples.py does) with every
feature on, then walks from the crate root through public modules and re-exports: an item is
listed under each path a user can write (`tool_core::ToolCall`, not the private module that
defines it). Items hidden from the docs (`#[doc(hidden)]`) are left out, as rustdoc leaves them
out. One line per item: its kind, its path and, for functions and methods, its signature (type
names without their module paths, so moving a type between private modules changes nothing).
A type's fields, variants, methods and trait implementations are listed once, under its
shortest path. Blanket and auto-trait implementations are left out.

The listing is checked in so that every change to the public API shows up in review: CI runs
`--check`, and a deliberate change regenerates the file with `--write`.
"""
import difflib, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LISTING = os.path.join(ROOT, "tool-core", "public-api.txt")
REGENERATE = "python3 scripts/public_api.py --write"


def build():
    # Only rustdoc gets RUSTC_BOOTSTRAP (see the wrapper), so the dependencies checked for the
    # lints are reused as they are.
    env = dict(os.environ, RUSTDOC=os.path.join(ROOT, "scripts", "rustdoc_unstable"))
    subprocess.run(["cargo", "rustdoc", "-q", "-p", "tool-core", "--lib", "--all-features", "--",
                    "-Z", "unstable-options", "--output-format", "json"],
                   cwd=ROOT, env=env, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    with open(os.path.join(target, "doc", "tool_core.json"), encoding="utf-8") as f:
        return json.load(f)


# ---- rendering types and signatures -------------------------------------------------------

def last(path):
    return path.split("::")[-1]


def args_(a):
    if not a:
        return ""
    if a == "return_type_notation":
        return "(..)"
    if "parenthesized" in a:
        p = a["parenthesized"]
        out = f" -> {ty(p['output'])}" if p.get("output") else ""
        return "(" + ", ".join(ty(t) for t in p["inputs"]) + ")" + out
    ab = a["angle_bracketed"]
    parts = []
    for g in ab["args"]:
        if g == "infer":
            parts.append("_")
        elif "lifetime" in g:
            parts.append(g["lifetime"])
        elif "type" in g:
            parts.append(ty(g["type"]))
        elif "const" in g:
            parts.append(g["const"].get("expr") or "_")
    for c in ab["constraints"]:
        b = c["binding"]
        head = c["name"] + args_(c.get("args"))
        if "equality" in b:
            term = b["equality"]
            parts.append(f"{head} = " + (ty(term["type"]) if "type" in term
                                         else term["constant"].get("expr", "_")))
        else:
            parts.append(f"{head}: " + bounds(b["constraint"]))
    return "<" + ", ".join(parts) + ">" if parts else ""


def path_(p):
    return last(p["path"]) + args_(p.get("args"))


def hrtb(params):
    return "for<" + ", ".join(g["name"] for g in params) + "> " if params else ""


def bound(b):
    if "outlives" in b:
        return b["outlives"]
    if "use" in b:
        return "use<" + ", ".join(str(u.get("lifetime", u.get("param", u)))
                                  if isinstance(u, dict) else str(u) for u in b["use"]) + ">"
    tb = b["trait_bound"]
    mod = {"maybe": "?", "maybe_const": "~const "}.get(tb["modifier"], "")
    return mod + hrtb(tb.get("generic_params")) + path_(tb["trait"])


def bounds(bs):
    return " + ".join(bound(b) for b in bs)


def ty(t):
    if t is None:
        return "()"
    if t == "infer":
        return "_"
    (kind, v), = t.items()
    if kind == "resolved_path":
        return path_(v)
    if kind == "generic" or kind == "primitive":
        return v
    if kind == "tuple":
        return "(" + ", ".join(ty(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if kind == "slice":
        return f"[{ty(v)}]"
    if kind == "array":
        return f"[{ty(v['type'])}; {v['len']}]"
    if kind == "borrowed_ref":
        lt = v["lifetime"] + " " if v.get("lifetime") else ""
        inner = ty(v["type"])
        if inner.startswith("dyn ") and " + " in inner:
            inner = f"({inner})"
        return "&" + lt + ("mut " if v["is_mutable"] else "") + inner
    if kind == "raw_pointer":
        return ("*mut " if v["is_mutable"] else "*const ") + ty(v["type"])
    if kind == "impl_trait":
        return "impl " + bounds(v)
    if kind == "dyn_trait":
        parts = [hrtb(p.get("generic_params")) + path_(p["trait"]) for p in v["traits"]]
        if v.get("lifetime"):
            parts.append(v["lifetime"])
        return "dyn " + " + ".join(parts)
    if kind == "qualified_path":
        # rustdoc leaves the trait's path empty when the source wrote `F::Output`.
        if v.get("trait") and v["trait"]["path"]:
            base = f"<{ty(v['self_type'])} as {path_(v['trait'])}>"
        else:
            base = ty(v["self_type"])
        return f"{base}::{v['name']}" + args_(v.get("args"))
    if kind == "function_pointer":
        return hrtb(v.get("generic_params")) + "fn" + sig(v["sig"], bare=True)
    if kind == "pat":
        return ty(v["type"])
    return kind


def generics(g, where=True):
    params = []
    for p in g["params"]:
        k = p["kind"]
        if "lifetime" in k:
            out = k["lifetime"]["outlives"]
            params.append(p["name"] + (": " + " + ".join(out) if out else ""))
        elif "type" in k:
            if k["type"]["is_synthetic"]:
                continue
            b = k["type"]["bounds"]
            d = k["type"].get("default")
            params.append(p["name"] + (": " + bounds(b) if b else "") + (f" = {ty(d)}" if d else ""))
        else:
            params.append(f"const {p['name']}: {ty(k['const']['type'])}")
    head = "<" + ", ".join(params) + ">" if params else ""
    preds = []
    for w in g["where_predicates"] if where else []:
        if "bound_predicate" in w:
            b = w["bound_predicate"]
            preds.append(hrtb(b.get("generic_params")) + f"{ty(b['type'])}: {bounds(b['bounds'])}")
        elif "lifetime_predicate" in w:
            b = w["lifetime_predicate"]
            preds.append(f"{b['lifetime']}: " + " + ".join(b["outlives"]))
        elif "eq_predicate" in w:
            b = w["eq_predicate"]
            rhs = b["rhs"]
            preds.append(f"{ty(b['lhs'])} = " + (ty(rhs["type"]) if "type" in rhs else str(rhs)))
    return head, (" where " + ", ".join(preds) if preds else "")


def sig(s, bare=False):
    inputs = []
    for name, t in s["inputs"]:
        if name == "self" and not bare:
            if t == {"generic": "Self"}:
                inputs.append("self")
                continue
            r = t.get("borrowed_ref") if isinstance(t, dict) else None
            if r and r["type"] == {"generic": "Self"}:
                lt = r["lifetime"] + " " if r.get("lifetime") else ""
                inputs.append("&" + lt + ("mut " if r["is_mutable"] else "") + "self")
                continue
        inputs.append(ty(t) if bare else f"{name}: {ty(t)}")
    out = s.get("output")
    return "(" + ", ".join(inputs) + ")" + (f" -> {ty(out)}" if out is not None else "")


def function(f):
    """`const async fn` and the rest of the line after the function's path."""
    h = f["header"]
    quals = "".join(q for c, q in ((h["is_const"], "const "), (h["is_async"], "async "),
                                   (h["is_unsafe"], "unsafe ")) if c)
    head, where = generics(f["generics"])
    return quals + "fn", f"{head}{sig(f['sig'])}{where}"


# ---- walking the crate ----------------------------------------------------------------------

# rustdoc's kind names, as a user would write them.
KINDS = {"module": "mod", "function": "fn", "constant": "const", "type_alias": "type",
         "proc_attribute": "attribute macro", "proc_derive": "derive macro"}
# Implementations a derive adds for the compiler's own use.
IGNORED_TRAITS = {"StructuralPartialEq"}


class Api:
    def __init__(self, doc):
        self.index, self.paths = doc["index"], doc["paths"]
        self.root = str(doc["root"])
        self.where = {}  # item id -> every public path to it
        self.lines = set()

    def item(self, id_):
        it = self.index.get(str(id_))
        if it is None:
            return None
        if any("doc(hidden)" in json.dumps(a) for a in it.get("attrs", [])):
            return None
        return it

    def collect(self, mod_id, prefix, seen):
        """Records every path through public modules and re-exports under `mod_id`."""
        if mod_id in seen:
            return
        seen = seen | {mod_id}
        mod = self.index[mod_id]["inner"]["module"]
        for child in mod["items"]:
            it = self.item(child)
            if it is None or it["visibility"] != "public":
                continue
            if "use" in it["inner"]:
                u = it["inner"]["use"]
                target = str(u["id"]) if u.get("id") is not None else None
                if u["is_glob"]:
                    t = self.item(target) if target else None
                    if t and "module" in t["inner"]:
                        self.collect(target, prefix, seen)
                    continue
                if target is None:
                    continue
                self.add(target, prefix + [u["name"]], seen)
            else:
                self.add(str(child), prefix + [it["name"]], seen)

    def add(self, id_, path, seen):
        it = self.index.get(id_)
        if it is not None and self.item(id_) is None:
            return
        self.where.setdefault(id_, []).append(path)
        if it is not None and "module" in it["inner"]:
            self.collect(id_, path, seen)

    def canonical(self, id_):
        return min(self.where[id_], key=lambda p: (len(p), p))

    def emit(self, kind, path, rest=""):
        kind = KINDS.get(kind, kind)
        self.lines.add(f"{kind} {'::'.join(path)}{rest}")

    def render(self):
        for id_, paths in self.where.items():
            it = self.index.get(id_)
            if it is None:  # re-exported from another crate (the derive macros)
                summary = self.paths.get(id_, {})
                origin = "::".join(summary.get("path", ["?"]))
                for p in paths:
                    self.emit(summary.get("kind", "item"), p, f" (re-export of {origin})")
                continue
            kind, inner = next(iter(it["inner"].items()))
            dep = " (deprecated)" if it.get("deprecation") else ""
            for p in paths:
                if kind == "function":
                    self.emit(*self.fn_line(inner, p, dep))
                else:
                    self.emit(kind, p, self.summary(kind, inner) + dep)
            self.members(id_, kind, inner, self.canonical(id_))

    def fn_line(self, inner, path, suffix):
        kind, rest = function(inner)
        return kind, path, rest + suffix

    def summary(self, kind, inner):
        if kind in ("struct", "enum", "type_alias", "trait"):
            head, where = generics(inner["generics"])
            extra = ""
            if kind == "type_alias":
                extra = f" = {ty(inner['type'])}"
            if kind == "trait" and inner.get("bounds"):
                extra = ": " + bounds(inner["bounds"])
            return head + extra + where
        if kind == "constant":
            return f": {ty(inner['type'])}"
        if kind == "static":
            return f": {ty(inner['type'])}"
        return ""

    def members(self, id_, kind, inner, path):
        if kind == "struct":
            k = inner["kind"]
            if isinstance(k, dict) and "plain" in k:
                self.fields(k["plain"]["fields"], path)
            elif isinstance(k, dict) and "tuple" in k:
                for i, f in enumerate(k["tuple"]):
                    fi = self.item(f) if f is not None else None
                    if fi:
                        self.emit("field", path + [str(i)], f": {ty(fi['inner']['struct_field'])}")
            self.impls(inner["impls"], path)
        elif kind == "enum":
            for v in inner["variants"]:
                vi = self.item(v)
                if vi is None:
                    continue
                vk = vi["inner"]["variant"]["kind"]
                vpath = path + [vi["name"]]
                if isinstance(vk, dict) and "tuple" in vk:
                    tys = [ty(self.index[str(f)]["inner"]["struct_field"]) if f is not None
                           else "_" for f in vk["tuple"]]
                    self.emit("variant", vpath, "(" + ", ".join(tys) + ")")
                else:
                    self.emit("variant", vpath)
                    if isinstance(vk, dict) and "struct" in vk:
                        self.fields(vk["struct"]["fields"], vpath)
            self.impls(inner["impls"], path)
        elif kind == "trait":
            for m in inner["items"]:
                self.assoc(m, path, in_trait=True)
            for im in inner.get("implementations", []):
                self.impl_line(im)

    def fields(self, ids, path):
        for f in ids:
            fi = self.item(f)
            if fi and fi["visibility"] == "public":
                self.emit("field", path + [fi["name"]], f": {ty(fi['inner']['struct_field'])}")

    def assoc(self, id_, path, in_trait=False):
        mi = self.item(id_)
        if mi is None:
            return
        kind, inner = next(iter(mi["inner"].items()))
        p = path + [mi["name"]]
        dep = " (deprecated)" if mi.get("deprecation") else ""
        if kind == "function":
            default = " (provided)" if in_trait and inner.get("has_body") else ""
            self.emit(*self.fn_line(inner, p, default + dep))
        elif kind == "assoc_const":
            self.emit("const", p, f": {ty(inner['type'])}" + dep)
        elif kind == "assoc_type":
            b = inner.get("bounds")
            self.emit("type", p, (": " + bounds(b) if b else "") + dep)

    def impls(self, ids, path):
        for im in ids:
            impl = self.index.get(str(im), {}).get("inner", {}).get("impl")
            if impl is None or impl["is_synthetic"] or impl.get("blanket_impl") is not None:
                continue
            if impl["trait"] is None:
                for m in impl["items"]:
                    mi = self.item(m)
                    if mi and mi["visibility"] == "public":
                        self.assoc(m, path)
            else:
                self.impl_line(im)

    def impl_line(self, im):
        if self.item(im) is None:
            return
        impl = self.index[str(im)]["inner"]["impl"]
        if impl["is_synthetic"] or impl.get("blanket_impl") is not None:
            return
        if last(impl["trait"]["path"]) in IGNORED_TRAITS:
            return
        head, where = generics(impl["generics"])
        neg = "!" if impl.get("is_negative") else ""
        self.lines.add(f"impl{head} {neg}{path_(impl['trait'])} for {ty(impl['for'])}{where}")


def doc_examples_count(doc):
    """The number scripts/doc_examples.py reports as public items, from the same JSON."""
    index, paths = doc["index"], doc["paths"]
    kinds = {"module", "struct", "enum", "trait", "function", "macro", "type_alias",
             "constant", "static", "proc_attribute", "proc_derive"}
    public = {id_ for id_, s in paths.items()
              if s.get("crate_id") == 0 and s.get("kind") in kinds and id_ in index}
    count = len(public)
    for id_ in public:
        inner = index[id_].get("inner", {})
        for kind in ("struct", "enum"):
            for impl_id in inner.get(kind, {}).get("impls", []):
                impl = index.get(str(impl_id), {}).get("inner", {}).get("impl", {})
                if impl.get("trait") is not None:
                    continue
                for m in impl.get("items", []):
                    mi = index.get(str(m))
                    if mi and mi.get("visibility") == "public" and "function" in mi.get("inner", {}):
                        count += 1
    return count


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else None
    if mode not in (None, "--write", "--check"):
        sys.exit(__doc__)
    doc = build()
    api = Api(doc)
    api.add(api.root, ["tool_core"], frozenset())
    api.render()
    lines = sorted(api.lines)
    text = "".join(line + "\n" for line in lines)
    paths = sum(len(p) for p in api.where.values())
    note = (f"{len(lines)} lines, {paths} public paths (modules and the items in them); "
            f"doc_examples.py counts {doc_examples_count(doc)} public items")
    if mode is None:
        sys.stdout.write(text)
        print(note, file=sys.stderr)
    elif mode == "--write":
        with open(LISTING, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {os.path.relpath(LISTING, ROOT)}: {note}", file=sys.stderr)
    else:
        try:
            with open(LISTING, encoding="utf-8") as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old == text:
            print(f"public API unchanged: {note}", file=sys.stderr)
            return
        diff = difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                    "tool-core/public-api.txt (checked in)",
                                    "tool-core/public-api.txt (this build)")
        sys.stdout.writelines(diff)
        print(f"\ntool-core's public API differs from tool-core/public-api.txt ({note}).\n"
              f"If the change is deliberate, regenerate the listing with `{REGENERATE}` "
              "and commit it.", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
