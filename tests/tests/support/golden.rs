//! Byte-for-byte golden files under `tests/golden/`. `UPDATE_GOLDEN=1` rewrites them.

use std::path::PathBuf;

pub fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(name)
}

/// Compares `actual` with the golden file, or rewrites the file when `UPDATE_GOLDEN=1`.
pub fn assert_golden(name: &str, actual: &str) {
    let file = path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&file, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "cannot read golden file {}: {e}; run with UPDATE_GOLDEN=1 to create it",
            file.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| "length".to_string(), |i| format!("line {}", i + 1));
        panic!(
            "{} differs from the generated output (first difference: {line}); review and rerun with UPDATE_GOLDEN=1\n--- generated ---\n{actual}",
            file.display()
        );
    }
}

/// Pretty JSON with a trailing newline: the golden file format.
pub fn pretty(value: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap();
    s.push('\n');
    s
}
