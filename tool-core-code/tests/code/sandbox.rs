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
fn globals_list() {
    let reply = run("return Object.getOwnPropertyNames(globalThis).sort();");
    println!("{}", reply.model_text());
}
