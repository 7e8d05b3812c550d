//! MCP peers for the `mcp_*` tests and the `mcp_peer` binary: the same four tools served by
//! tool-core ([`ours`]) and by rmcp's `#[tool_router]` ([`theirs`]), and hand-written hostile
//! servers ([`hostile`]) that no SDK would produce on purpose.

pub mod asker;
pub mod catalog;
pub mod harness;
pub mod hostile;
pub mod ours;
pub mod tasks;
pub mod theirs;

/// What a tool saw of cancellation, shared between a server and the test driving it.
#[derive(Debug, Default)]
pub struct CancelProbe {
    /// Set when a running `slow` call saw its cancel flag (or token) raised.
    pub cancelled: std::sync::atomic::AtomicBool,
    /// Woken when `cancelled` is set.
    pub seen: tokio::sync::Notify,
}

impl CancelProbe {
    /// Records that a call saw the cancellation.
    pub fn record(&self) {
        self.cancelled
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.seen.notify_waiters();
        self.seen.notify_one();
    }

    /// Whether a call saw the cancellation.
    pub fn was_cancelled(&self) -> bool {
        self.cancelled.load(std::sync::atomic::Ordering::SeqCst)
    }
}
