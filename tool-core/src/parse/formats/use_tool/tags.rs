//! The tags of a `<use_tool>` block, in the order the state machine's matches index them.

pub(crate) const USE_TOOL: &[&[u8]] = &[b"<use_tool>"];
/// Tags that open a call after `<use_tool>`; index 1 and 3 are the aliases.
pub(crate) const CHILD_OPEN: &[&[u8]] = &[b"<tool_name>", b"<name>", b"<arguments>", b"<argument>"];
/// Between children: the child openers, then `</use_tool>` (index 4).
pub(crate) const IN_CALL: &[&[u8]] = &[
    b"<tool_name>",
    b"<name>",
    b"<arguments>",
    b"<argument>",
    b"</use_tool>",
];
/// Closers of a name; index 2 (`</use_tool>`) means `</tool_name>` was missing.
pub(crate) const NAME_CLOSE: &[&[u8]] = &[b"</tool_name>", b"</name>", b"</use_tool>"];
/// Closers of `<arguments>`; index 2 (`</use_tool>`) means `</arguments>` was missing.
pub(crate) const ARGS_CLOSE: &[&[u8]] = &[b"</arguments>", b"</argument>", b"</use_tool>"];
