//! Hostile programs: each ends with a structured answer, never a panic.

use tool_core::ToolStatus;

use crate::fixtures::run;

#[test]
fn prototype_pollution_of_tools_changes_nothing() {
    let reply = run(
        "'use strict';\nconst tried = [];\n\
         for (const attempt of [\n\
           () => { tools.add = async () => 42; },\n\
           () => { delete tools.add; },\n\
           () => { Object.setPrototypeOf(tools, { add: async () => 42 }); },\n\
           () => { Object.defineProperty(tools, 'add', { value: 1 }); },\n\
           () => { tools.__proto__.add = 1; },\n\
         ]) { try { attempt(); tried.push('ok'); } catch (e) { tried.push(e.name); } }\n\
         Object.prototype.add = () => 'polluted';\n\
         Promise.prototype.then = function () { return 'broken'; };\n\
         return [tried, await tools.add({a: 1, b: 1})];",
    );
    println!("{}", reply.model_text());
    assert!(reply.status != ToolStatus::Success || !reply.model_text().contains("42"));
}

#[test]
fn deep_recursion_ends_without_a_panic() {
    let reply = run("const f = (n) => f(n + 1) + 1; return f(0);");
    assert!(reply.error_message().unwrap().contains("stack limit"), "{}", reply.model_text());
    let reply = run("const f = (n) => { try { return f(n + 1); } catch (e) { return n; } }; return f(0) > 100;");
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
    ] {
        let reply = run(code);
        assert!(!reply.model_text().is_empty(), "{code}");
        println!("{code}\n  -> {}", reply.model_text());
    }
}
