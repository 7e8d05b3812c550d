use std::rc::Rc;

use tool_core::tool;

#[derive(Debug)]
struct LocalError(Rc<str>);

impl std::fmt::Display for LocalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LocalError {}

/// Fails with an error that cannot cross threads.
#[tool]
fn fail() -> Result<String, LocalError> {
    Err(LocalError("no".into()))
}

fn main() {}
