//! Each limit ends the program with an error naming it.

use std::time::{Duration, Instant};

use tool_core::ToolErrorCode;
use tool_core_code::{CodeLimits, CodeMode};

use crate::fixtures::{registry, run, run_code};

#[test]
fn an_infinite_loop_ends_at_the_wall_time_limit() {
    let mode = CodeMode::new(registry())
        .limits(CodeLimits::default().wall_time(Duration::from_millis(300)));
    let started = Instant::now();
    let reply = run_code(&mode, "while (true) {}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(reply.error_code(), Some(ToolErrorCode::Timeout));
    assert!(
        reply
            .error_message()
            .unwrap()
            .contains("wall time limit (300 ms)"),
        "{}",
        reply.model_text()
    );
}

#[test]
fn the_default_wall_time_is_five_seconds() {
    let started = Instant::now();
    let reply = run("for (;;) { try { while (true) {} } catch (e) {} }");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(4900) && took < Duration::from_secs(10),
        "{took:?}"
    );
    assert!(
        reply
            .error_message()
            .unwrap()
            .contains("wall time limit (5000 ms)"),
        "{}",
        reply.model_text()
    );
}

#[test]
fn allocating_gigabytes_ends_at_the_memory_limit() {
    for code in [
        "const a = []; for (let i = 0; i < 2e9; i++) a.push(i); return a.length;",
        "const keep = []; for (let i = 0; i < 64; i++) keep.push(new Array(32 * 1024 * 1024).fill(i)); return keep.length;",
        "const parts = []; for (let i = 0; i < 8; i++) parts.push('x'.repeat(1 << 28)); return parts.length;",
    ] {
        let reply = run(code);
        let message = reply.error_message().unwrap_or_default();
        assert!(message.contains("memory limit (64 MiB)"), "{code}: {}", reply.model_text());
    }
    // The process is still here, and the next program runs.
    assert_eq!(run("return 1 + 1;").model_text(), "2");
}

#[test]
fn too_many_calls_end_at_the_call_limit() {
    let mode = CodeMode::new(registry()).limits(CodeLimits::default().max_calls(5));
    let reply = run_code(&mode, "let x = 0; for (let i = 0; i < 10; i++) { try { x = await tools.add({a: x, b: 1}); } catch (e) {} } return x;");
    assert!(
        reply
            .error_message()
            .unwrap()
            .contains("tool call limit (5 calls per program)"),
        "{}",
        reply.model_text()
    );
}

#[test]
fn too_much_output_ends_at_the_result_size_limit() {
    let reply =
        run("for (let i = 0; i < 1e6; i++) { try { console.log('line ' + i); } catch (e) {} }");
    assert!(
        reply
            .error_message()
            .unwrap()
            .contains("result size limit (65536 bytes"),
        "{}",
        reply.model_text()
    );
    let reply = run("return 'y'.repeat(100000);");
    assert!(
        reply.error_message().unwrap().contains("result size limit"),
        "{}",
        reply.model_text()
    );
}

#[test]
fn a_cancelled_run_stops_its_program() {
    use tool_core::{CallContext, CancelFlag, ToolCall};
    let registry = CodeMode::new(registry()).registry();
    let cancel = CancelFlag::new();
    let context = CallContext::new().with_cancel(cancel.clone());
    let stopper = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            cancel.cancel();
        })
    };
    let started = Instant::now();
    let call = ToolCall::new("prog", "run_code", r#"{"code": "while (true) {}"}"#);
    let reply = tool_core::block_on(registry.call_in(&call, &context));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        reply
            .error_message()
            .unwrap()
            .contains("The run was cancelled"),
        "{}",
        reply.model_text()
    );
    stopper.join().unwrap();
}

#[test]
fn extreme_limits_do_not_panic() {
    let limits = CodeLimits::default()
        .wall_time(Duration::MAX)
        .stack_bytes(usize::MAX)
        .max_result_bytes(usize::MAX)
        .memory_bytes(usize::MAX);
    let mode = CodeMode::new(registry()).limits(limits);
    assert_eq!(run_code(&mode, "return 6 * 7;").model_text(), "42");
    let none = CodeLimits::default().max_calls(0).max_result_bytes(0);
    let mode = CodeMode::new(registry()).limits(none);
    let reply = run_code(&mode, "return await tools.add({a: 1, b: 2});");
    assert!(
        reply
            .error_message()
            .unwrap()
            .contains("tool call limit (0 calls"),
        "{}",
        reply.model_text()
    );
}
