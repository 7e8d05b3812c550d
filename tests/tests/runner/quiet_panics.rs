//! Expected panics kept quiet without silencing the rest of the binary.
//!
//! Some tests panic on purpose (thousands of times) to check that a panicking tool or hook
//! becomes an error response. An empty process-wide panic hook would keep their output
//! readable, but in a binary shared by many tests it would also hide the message of any other
//! test that fails by panicking. So one hook is installed for the process, and it stays quiet
//! only on threads that asked for it: a test's own thread (libtest runs every test on a thread
//! of its own, so the request ends with the test) and the worker threads of a runtime the test
//! builds (`on_thread_start(quiet_panics)`).

use std::cell::Cell;
use std::sync::Once;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Panics on the current thread print nothing from now on; other threads keep the default
/// hook's message.
pub fn quiet_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                default(info);
            }
        }));
    });
    QUIET.with(|quiet| quiet.set(true));
}
