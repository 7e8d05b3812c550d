//! [`CodeLimits`]: what one program may spend, and [`LimitHit`], the limit that ended one.

use std::time::Duration;

/// What one program may spend. Each limit, when reached, ends the program with an error
/// that names it; the run goes on and the model reads the error as the code tool's result.
///
/// ```
/// use std::time::Duration;
/// use tool_core_code::CodeLimits;
///
/// let limits = CodeLimits::default().wall_time(Duration::from_secs(2)).max_calls(20);
/// assert_eq!(limits.wall_time, Duration::from_secs(2));
/// assert_eq!(limits.max_calls, 20);
/// assert_eq!(limits.memory_bytes, 64 * 1024 * 1024);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodeLimits {
    /// Wall time from the program's start to its end, the time its tool calls take
    /// included (default 5 s).
    pub wall_time: Duration,
    /// Memory the engine may allocate for the program (default 64 MiB).
    pub memory_bytes: usize,
    /// Tool calls one program may make (default 100).
    pub max_calls: u32,
    /// Bytes of result: `console.log` output and the returned value together (default
    /// 64 KiB).
    pub max_result_bytes: usize,
    /// Bytes of source the model may send (default 64 KiB).
    pub max_source_bytes: usize,
    /// Native stack the engine may use, which bounds recursion depth (default 512 KiB, at
    /// most 128 MiB).
    pub stack_bytes: usize,
}

impl Default for CodeLimits {
    fn default() -> Self {
        CodeLimits {
            wall_time: Duration::from_secs(5),
            memory_bytes: 64 * 1024 * 1024,
            max_calls: 100,
            max_result_bytes: 64 * 1024,
            max_source_bytes: 64 * 1024,
            stack_bytes: 512 * 1024,
        }
    }
}

impl CodeLimits {
    /// Sets [`CodeLimits::wall_time`].
    ///
    /// ```
    /// let limits = tool_core_code::CodeLimits::default().wall_time(std::time::Duration::from_millis(500));
    /// assert_eq!(limits.wall_time.as_millis(), 500);
    /// ```
    pub fn wall_time(mut self, limit: Duration) -> Self {
        self.wall_time = limit;
        self
    }

    /// Sets [`CodeLimits::memory_bytes`].
    ///
    /// ```
    /// let limits = tool_core_code::CodeLimits::default().memory_bytes(16 << 20);
    /// assert_eq!(limits.memory_bytes, 16 << 20);
    /// ```
    pub fn memory_bytes(mut self, limit: usize) -> Self {
        self.memory_bytes = limit;
        self
    }

    /// Sets [`CodeLimits::max_calls`].
    ///
    /// ```
    /// assert_eq!(tool_core_code::CodeLimits::default().max_calls(3).max_calls, 3);
    /// ```
    pub fn max_calls(mut self, limit: u32) -> Self {
        self.max_calls = limit;
        self
    }

    /// Sets [`CodeLimits::max_result_bytes`].
    ///
    /// ```
    /// assert_eq!(tool_core_code::CodeLimits::default().max_result_bytes(1000).max_result_bytes, 1000);
    /// ```
    pub fn max_result_bytes(mut self, limit: usize) -> Self {
        self.max_result_bytes = limit;
        self
    }

    /// Sets [`CodeLimits::max_source_bytes`].
    ///
    /// ```
    /// assert_eq!(tool_core_code::CodeLimits::default().max_source_bytes(4096).max_source_bytes, 4096);
    /// ```
    pub fn max_source_bytes(mut self, limit: usize) -> Self {
        self.max_source_bytes = limit;
        self
    }

    /// Sets [`CodeLimits::stack_bytes`].
    ///
    /// ```
    /// assert_eq!(tool_core_code::CodeLimits::default().stack_bytes(256 << 10).stack_bytes, 256 << 10);
    /// ```
    pub fn stack_bytes(mut self, limit: usize) -> Self {
        self.stack_bytes = limit;
        self
    }
}

/// The limit that ended a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LimitHit {
    WallTime,
    Memory,
    Calls,
    Result,
    Stack,
}

impl LimitHit {
    /// The sentence the model reads, naming the limit and what to do.
    pub(crate) fn message(self, limits: &CodeLimits) -> String {
        match self {
            LimitHit::WallTime => format!(
                "The program was stopped at the wall time limit ({} ms). Look for a loop that \
                 never ends, or do less in one program.",
                limits.wall_time.as_millis()
            ),
            LimitHit::Memory => format!(
                "The program was stopped at the memory limit ({} MiB): it allocated too much. \
                 Work on less data at a time.",
                limits.memory_bytes / (1024 * 1024)
            ),
            LimitHit::Calls => format!(
                "The program was stopped at the tool call limit ({} calls per program). Make \
                 fewer calls, or split the work over several programs.",
                limits.max_calls
            ),
            LimitHit::Result => format!(
                "The program was stopped at the result size limit ({} bytes of console.log \
                 output and return value). Log and return less: summarize in the program.",
                limits.max_result_bytes
            ),
            LimitHit::Stack => format!(
                "The program was stopped at the stack limit ({} KiB): recursion too deep. Use \
                 a loop instead.",
                limits.stack_bytes / 1024
            ),
        }
    }

    pub(crate) fn as_u8(self) -> u8 {
        match self {
            LimitHit::WallTime => 1,
            LimitHit::Memory => 2,
            LimitHit::Calls => 3,
            LimitHit::Result => 4,
            LimitHit::Stack => 5,
        }
    }

    pub(crate) fn from_u8(value: u8) -> Option<Self> {
        Some(match value {
            1 => LimitHit::WallTime,
            2 => LimitHit::Memory,
            3 => LimitHit::Calls,
            4 => LimitHit::Result,
            5 => LimitHit::Stack,
            _ => return None,
        })
    }
}
