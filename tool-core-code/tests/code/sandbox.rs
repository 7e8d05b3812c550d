//! What a program cannot reach.

use crate::fixtures::run;

#[test]
fn no_ambient_authority_is_in_scope() {
    let reply = run(
        "return ['fetch', 'require', 'process', 'Deno', 'XMLHttpRequest', 'setTimeout', \
         'setInterval', 'WebSocket', 'os', 'std', 'Bun', 'module', 'exports', 'importScripts']\
         .filter(n => typeof globalThis[n] !== 'undefined');",
    );
    assert_eq!(reply.model_text(), "[]");
}

#[test]
fn dynamic_import_fails() {
    let reply = run(
        "try { await import('os'); return 'imported'; } catch (e) { return 'refused: ' + e.name; }",
    );
    assert!(
        reply.model_text().starts_with("refused"),
        "{}",
        reply.model_text()
    );
}

#[test]
fn function_constructor_escapes_stay_in_the_sandbox() {
    let reply = run(
        "const g = (function(){}).constructor('return this')();\n\
         const found = [typeof g.process, typeof g.require, typeof g.fetch];\n\
         try { tools.constructor.constructor('return process')(); found.push('escaped'); } catch (e) { found.push(e.name); }\n\
         return found;",
    );
    assert_eq!(
        reply.model_text(),
        r#"["undefined","undefined","undefined","ReferenceError"]"#
    );
}

#[test]
fn the_global_scope_is_the_standard_library_tools_and_console() {
    // An engine upgrade that adds a global fails here, so each new one is looked at.
    let reply = run("return Object.getOwnPropertyNames(globalThis).sort();");
    let globals: Vec<String> = serde_json::from_str(&reply.model_text()).unwrap();
    let expected = [
        "AggregateError",
        "Array",
        "ArrayBuffer",
        "AsyncDisposableStack",
        "BigInt",
        "BigInt64Array",
        "BigUint64Array",
        "Boolean",
        "DOMException",
        "DataView",
        "Date",
        "DisposableStack",
        "Error",
        "EvalError",
        "FinalizationRegistry",
        "Float16Array",
        "Float32Array",
        "Float64Array",
        "Function",
        "Infinity",
        "Int16Array",
        "Int32Array",
        "Int8Array",
        "InternalError",
        "Iterator",
        "JSON",
        "Map",
        "Math",
        "NaN",
        "Number",
        "Object",
        "Promise",
        "Proxy",
        "RangeError",
        "ReferenceError",
        "Reflect",
        "RegExp",
        "Set",
        "String",
        "SuppressedError",
        "Symbol",
        "SyntaxError",
        "TypeError",
        "URIError",
        "Uint16Array",
        "Uint32Array",
        "Uint8Array",
        "Uint8ClampedArray",
        "WeakMap",
        "WeakRef",
        "WeakSet",
        "atob",
        "btoa",
        "console",
        "decodeURI",
        "decodeURIComponent",
        "encodeURI",
        "encodeURIComponent",
        "escape",
        "eval",
        "globalThis",
        "isFinite",
        "isNaN",
        "parseFloat",
        "parseInt",
        "performance",
        "queueMicrotask",
        "tools",
        "undefined",
        "unescape",
    ];
    assert_eq!(globals, expected);
}
