use tool_core::{tool, tools, Json, ToolCall, ToolError, ToolErrorCode, ToolResponse};

/// Returns a ToolResponse.
#[tool]
fn a() -> ToolResponse {
    ToolResponse::partial("some", "cut short")
}
/// Returns a String.
#[tool]
fn b() -> String {
    "b".to_string()
}
/// Returns a static str.
#[tool]
fn c() -> &'static str {
    "c"
}
/// Returns nothing.
#[tool]
fn d() {}
/// Returns JSON data.
#[tool]
fn e() -> Json<Vec<u8>> {
    Json(vec![1])
}
/// Fails with a ToolError.
#[tool]
fn f() -> Result<String, ToolError> {
    Err(ToolError::not_found("nothing here"))
}
/// Fails with a std error.
#[tool]
fn g() -> Result<u32, std::num::ParseIntError> {
    "x".parse()
}
/// Returns a bool.
#[tool]
fn h() -> bool {
    true
}
/// Returns a float.
#[tool]
async fn i() -> Result<f64, std::io::Error> {
    Ok(1.5)
}
/// Uses ? on another error through ToolError::from_error.
#[tool]
fn j() -> Result<Json<u32>, ToolError> {
    let n: u32 = "7".parse().map_err(ToolError::from_error)?;
    Ok(Json(n))
}

fn main() {
    let r = tools![a, b, c, d, e, f, g, h, i, j];
    let text = |name: &str| r.call_blocking(&ToolCall::new("1", name, "{}")).model_text().into_owned();
    assert_eq!(text("a"), "Partial result (cut short): some");
    assert_eq!(text("b"), "b");
    assert_eq!(text("c"), "c");
    assert_eq!(text("d"), "Done.");
    assert_eq!(text("e"), "[1]");
    assert_eq!(text("f"), "Error [NOT_FOUND]: nothing here");
    assert_eq!(
        r.call_blocking(&ToolCall::new("1", "g", "{}")).error_code(),
        Some(ToolErrorCode::ExecutionError)
    );
    assert_eq!(text("h"), "true");
    assert_eq!(text("i"), "1.5");
    assert_eq!(text("j"), "7");
}
