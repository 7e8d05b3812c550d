use tool_core::toolbox;

struct Notes;

#[toolbox]
impl Clone for Notes {
    fn clone(&self) -> Self {
        Notes
    }
}

fn main() {}
