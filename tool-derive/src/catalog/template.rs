//! The compile-time half of URI template handling: the variables of an RFC 6570 level-1
//! template, or what is wrong with it. The same rules as `tool_core::catalog::UriTemplate`.

/// The template's variable names, in order.
pub fn variables(template: &str) -> Result<Vec<String>, String> {
    let mut vars: Vec<String> = Vec::new();
    let mut rest = template;
    let mut last_was_var = false;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('{') {
            let close = after
                .find('}')
                .ok_or("a `{` is never closed: write variables as `{name}`")?;
            let name = &after[..close];
            if let Some(op) = name.chars().next().filter(|c| "+#./;?&=,!@|".contains(*c)) {
                return Err(format!(
                    "`{{{name}}}` uses the `{op}` operator; only simple `{{name}}` variables (RFC 6570 level 1) are supported"
                ));
            }
            if name.is_empty()
                || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                || name.starts_with(|c: char| c.is_ascii_digit())
            {
                return Err(format!(
                    "`{{{name}}}` is not a variable name: use letters, digits and `_`, starting with a letter"
                ));
            }
            if vars.iter().any(|v| v == name) {
                return Err(format!("the variable `{name}` appears twice"));
            }
            if last_was_var {
                return Err(format!(
                    "`{{{name}}}` follows another variable directly: put literal text between them so a URI can be split"
                ));
            }
            vars.push(name.to_owned());
            last_was_var = true;
            rest = &after[close + 1..];
        } else {
            let end = rest.find(['{', '}']).unwrap_or(rest.len());
            if rest[end..].starts_with('}') {
                return Err("a `}` has no matching `{`".to_owned());
            }
            last_was_var = false;
            rest = &rest[end..];
        }
    }
    Ok(vars)
}
