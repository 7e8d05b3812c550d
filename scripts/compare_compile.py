#!/usr/bin/env python3
"""Clean release build of one crate with 50 tools, written four ways, in one run.

    python3 scripts/compare_compile.py OUT_DIR [variant ...]

Variants: `handwritten` (serde + serde_json: an argument struct, a JSON schema literal and a
`match` per tool), `tool_core` (`#[tool]` + `tools![..]`, default features, this checkout),
`rmcp` (`#[tool_router]` + `#[tool]` methods, rmcp 3.11 with `server` and `macros`), `rig`
(`#[rig_tool]`, rig-core 0.44 with `derive`). Each crate gets its own empty target directory,
so every dependency is compiled. For each it prints the number of crates compiled, wall time
and CPU time (user + system: unlike wall time it barely moves when the machine is busy). The
crates are generated under OUT_DIR; nothing is kept in this repository.
"""
import os, subprocess, sys, time, resource

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = 50

def tool_fns(attr, doc=True):
    out = []
    for i in range(N):
        d = f"/// Tool number {i}: looks a thing up by name and count.\n" if doc else ""
        out.append(f"""{d}{attr}
fn tool_{i}(
    /// Name of the thing.
    name: String,
    /// How many to return.
    count: i64,
    /// Whether to include details.
    detailed: Option<bool>,
) -> String {{
    format!("{i}:{{name}}:{{count}}:{{detailed:?}}")
}}
""")
    return "\n".join(out)

def handwritten():
    parts = ["use serde::Deserialize;\nuse serde_json::{json, Value};\n"]
    arms, schemas = [], []
    for i in range(N):
        parts.append(f"""#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args{i} {{ name: String, count: i64, #[serde(default)] detailed: Option<bool> }}
fn tool_{i}(name: String, count: i64, detailed: Option<bool>) -> String {{
    format!("{i}:{{name}}:{{count}}:{{detailed:?}}")
}}
""")
        schemas.append(f"""json!({{"name": "tool_{i}", "description": "Tool number {i}: looks a thing up by name and count.",
  "parameters": {{"type": "object", "properties": {{
    "name": {{"type": "string", "description": "Name of the thing."}},
    "count": {{"type": "integer", "description": "How many to return."}},
    "detailed": {{"type": ["boolean", "null"], "description": "Whether to include details."}}}},
  "required": ["name", "count"], "additionalProperties": false}}}})""")
        arms.append(f"""        "tool_{i}" => serde_json::from_str::<Args{i}>(args).map(|a| tool_{i}(a.name, a.count, a.detailed)).map_err(|e| e.to_string()),""")
    parts.append("fn definitions() -> Vec<Value> { vec![\n" + ",\n".join(schemas) + "\n] }\n")
    parts.append("fn call(name: &str, args: &str) -> Result<String, String> {\n    match name {\n" + "\n".join(arms) + '\n        _ => Err(format!("unknown tool {name}")),\n    }\n}\n')
    parts.append('fn main() {\n    println!("{}", definitions().len());\n    println!("{:?}", call("tool_7", r#"{"name":"x","count":2}"#));\n}\n')
    deps = 'serde = { version = "1", features = ["derive"] }\nserde_json = "1"\n'
    return "".join(parts), deps

def tool_core():
    src = "use tool_core::{tool, tools, ToolCallRef};\n\n" + tool_fns("#[tool]")
    names = ", ".join(f"tool_{i}" for i in range(N))
    src += f"""
fn main() {{
    let registry = tools![{names}];
    println!("{{}}", registry.definitions().len());
    let reply = registry.call_blocking(ToolCallRef::new("c1", "tool_7", r#"{{"name":"x","count":2}}"#));
    println!("{{}}", reply.into_model_text());
}}
"""
    deps = f'tool-core = {{ path = "{ROOT}/tool-core" }}\n'
    return src, deps

def rmcp():
    parts = ["""use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::{tool, tool_router};
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
"""]
    methods = []
    for i in range(N):
        parts.append(f"""#[derive(Deserialize, JsonSchema)]
struct Args{i} {{
    /// Name of the thing.
    name: String,
    /// How many to return.
    count: i64,
    /// Whether to include details.
    detailed: Option<bool>,
}}
""")
        methods.append(f"""    /// Tool number {i}: looks a thing up by name and count.
    #[tool]
    fn tool_{i}(&self, Parameters(a): Parameters<Args{i}>) -> String {{
        format!("{i}:{{}}:{{}}:{{:?}}", a.name, a.count, a.detailed)
    }}""")
    parts.append("#[derive(Clone)]\nstruct Server { tool_router: ToolRouter<Server> }\n")
    parts.append("#[tool_router]\nimpl Server {\n" + "\n".join(methods) + "\n}\n")
    parts.append('fn main() {\n    let s = Server { tool_router: Server::tool_router() };\n    println!("{}", s.tool_router.list_all().len());\n}\n')
    deps = ('rmcp = { version = "=3.11.0", default-features = false, features = ["server", "macros"] }\n'
            'serde = { version = "1", features = ["derive"] }\n')
    return "".join(parts), deps

def rig():
    src = "use rig_derive::rig_tool;\n\n"
    for i in range(N):
        src += f"""/// Tool number {i}: looks a thing up by name and count.
#[rig_tool]
fn tool_{i}(
    /// Name of the thing.
    name: String,
    /// How many to return.
    count: i64,
    /// Whether to include details.
    detailed: Option<bool>,
) -> Result<String, rig_core::tool::ToolExecutionError> {{
    Ok(format!("{i}:{{name}}:{{count}}:{{detailed:?}}"))
}}
"""
    src += 'fn main() {\n    println!("{}", std::mem::size_of_val(&Tool7));\n}\n'
    deps = ('rig-core = { version = "=0.44.0" }\nrig-derive = "=0.44.0"\n'
            'serde = { version = "1", features = ["derive"] }\nserde_json = "1"\n')
    return src, deps

VARIANTS = {"handwritten": handwritten, "tool_core": tool_core, "rmcp": rmcp, "rig": rig}

def main():
    out = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(VARIANTS)
    for name in names:
        src, deps = VARIANTS[name]()
        d = os.path.join(out, name)
        os.makedirs(os.path.join(d, "src"), exist_ok=True)
        with open(os.path.join(d, "Cargo.toml"), "w") as f:
            f.write(f'[package]\nname = "cmp_{name}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
                    f'[dependencies]\n{deps}\n[workspace]\n')
        with open(os.path.join(d, "src", "main.rs"), "w") as f:
            f.write(src)
        target = os.path.join(d, "target")
        subprocess.run(["rm", "-rf", target])
        subprocess.run(["cargo", "fetch", "-q"], cwd=d, check=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.time()
        p = subprocess.run(["cargo", "build", "--release", "--offline"], cwd=d,
                           capture_output=True, text=True)
        wall = time.time() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        crates = p.stderr.count("   Compiling ")
        status = "ok" if p.returncode == 0 else "FAILED"
        print(f"{name:12} {status:6} crates={crates:4} wall={wall:7.1f}s cpu={cpu:7.1f}s", flush=True)
        if p.returncode != 0:
            print(p.stderr[-3000:])

if __name__ == "__main__":
    main()
