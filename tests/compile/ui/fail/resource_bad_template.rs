use tool_core::resource;

/// Files by path.
#[resource(uri = "file:///{+path}")]
fn file(path: String) -> String {
    path
}

/// Unclosed.
#[resource(uri = "notes://{title")]
fn note(title: String) -> String {
    title
}

/// Two variables in a row cannot be split apart.
#[resource(uri = "pair://{a}{b}")]
fn pair(a: String, b: String) -> String {
    a + &b
}

fn main() {}
