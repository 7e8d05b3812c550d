//! Hostile programs: each ends with a structured answer, never a panic.

use crate::fixtures::run;

#[test]
fn prototype_pollution_of_tools_changes_nothing() {
    let reply = run("'use strict';\nconst tried = [];\n\
         for (const attempt of [\n\
           () => { tools.add = async () => 42; },\n\
           () => { delete tools.add; },\n\
           () => { Object.setPrototypeOf(tools, { add: async () => 42 }); },\n\
           () => { Object.defineProperty(tools, 'add', { value: 1 }); },\n\
           () => { tools.__proto__.add = 1; },\n\
         ]) { try { attempt(); tried.push('ok'); } catch (e) { tried.push(e.name); } }\n\
         Object.prototype.add = () => 'polluted';\n\
         Promise.prototype.then = function () { return 'broken'; };\n\
         return [tried, await tools.add({a: 1, b: 1})];");
    // Every change to `tools` fails (a getter hands out a fresh function, so writing to one
    // changes nothing), and the real `add` still answers under polluted prototypes.
    assert_eq!(
        reply.model_text(),
        r#"[["TypeError","TypeError","TypeError","TypeError","ok"],2]"#
    );
}

#[test]
fn deep_recursion_ends_without_a_panic() {
    let reply = run("const f = (n) => f(n + 1) + 1; return f(0);");
    assert!(
        reply.error_message().unwrap().contains("stack limit"),
        "{}",
        reply.model_text()
    );
    let reply = run(
        "const f = (n) => { try { return f(n + 1); } catch (e) { return n; } }; return f(0) > 100;",
    );
    assert_eq!(reply.model_text(), "true");
}

#[test]
fn odd_programs_get_structured_answers() {
    for code in [
        "}{",
        "return Symbol('x');",
        "const a = {}; a.a = a; return a;",
        "return 10n;",
        "throw {toString() { throw new Error('nope'); }};",
        "throw null;",
        "await new Promise(() => {});",
        "return tools;",
        "return await tools.add({a: 1, b: 2, toJSON() { return tools.add({a: 1, b: 1}); }});",
        "const huge = {}; huge.toJSON = () => { while (true) {} }; return huge;",
        "return await tools['__proto__']({});",
        "return await tools[Symbol.iterator];",
        "console.log({ get x() { throw new Error('getter'); } }); return 1;",
        "const f = () => { throw new Error('deep'); };\nf();",
    ] {
        let reply = run(code);
        assert!(!reply.model_text().is_empty(), "{code}");
        if code == "throw null;" {
            // A thrown null is the program's own doing, not the engine running out of memory.
            assert_eq!(
                reply.error_message(),
                Some("The program threw an error: null")
            );
        }
        println!("{code}\n  -> {}", reply.model_text());
    }
}

#[test]
fn shared_memory_waits_are_not_available() {
    let reply = run("return [typeof Atomics, typeof SharedArrayBuffer];");
    assert_eq!(reply.model_text(), r#"["undefined","undefined"]"#);
}

#[test]
fn a_thrown_error_names_the_line_in_the_program() {
    let reply = run("const x = 1;\nconst f = () => { throw new Error('deep'); };\nf();");
    let message = reply.error_message().unwrap();
    assert!(
        message.starts_with("The program threw an error: Error: deep\n"),
        "{message}"
    );
    assert!(message.contains("(line 2, column"), "{message}");
    assert!(!message.contains("eval_script"), "{message}");
}
