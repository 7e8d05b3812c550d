//! URI templates, RFC 6570 level 1 (`weather://{city}/current`): literal text and `{name}`
//! variables. Matching a URI against one is what `resources/read` needs; expansion is what a
//! client needs to build a URI.

use super::CatalogError;

/// A parsed level-1 URI template.
///
/// A variable matches one or more characters up to the next literal text of the template
/// (a variable at the end takes the rest of the URI); its value is percent-decoded. Level 1
/// expansion percent-encodes `/`, so a value never spans path segments.
///
/// ```
/// use tool_core::catalog::UriTemplate;
/// let t = UriTemplate::parse("weather://{city}/current").unwrap();
/// assert_eq!(t.variables().collect::<Vec<_>>(), ["city"]);
/// let vars = t.match_uri("weather://S%C3%A3o%20Paulo/current").unwrap();
/// assert_eq!(vars, [("city".to_string(), "São Paulo".to_string())]);
/// assert!(t.match_uri("weather://Paris/forecast").is_none());
/// assert_eq!(t.expand(&[("city", "São Paulo")]), "weather://S%C3%A3o%20Paulo/current");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

impl UriTemplate {
    /// Parses a template. Errors name the problem: an unclosed `{`, a stray `}`, an empty or
    /// invalid variable name, an operator of a higher level (`{+x}`, `{?x}`), a repeated
    /// variable, or two variables with no text between them.
    pub fn parse(source: &str) -> Result<UriTemplate, CatalogError> {
        let parts = parse_parts(source).map_err(|message| CatalogError::InvalidTemplate {
            template: source.to_owned(),
            message,
        })?;
        Ok(UriTemplate {
            source: source.to_owned(),
            parts,
        })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the template has any variable (a plain URI does not).
    pub fn is_template(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, Part::Variable(_)))
    }

    /// The variable names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable(v) => Some(v.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The variables' values if `uri` matches, in template order.
    pub fn match_uri(&self, uri: &str) -> Option<Vec<(String, String)>> {
        let mut rest = uri;
        let mut vars = Vec::new();
        let mut parts = self.parts.iter().peekable();
        while let Some(part) = parts.next() {
            match part {
                Part::Literal(text) => rest = rest.strip_prefix(text.as_str())?,
                Part::Variable(name) => {
                    let end = match parts.peek() {
                        Some(Part::Literal(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    if end == 0 {
                        return None;
                    }
                    vars.push((name.clone(), percent_decode(&rest[..end])?));
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(vars)
    }

    /// Fills the variables in, percent-encoding every character outside RFC 3986's
    /// unreserved set; a variable without a value expands to nothing (as RFC 6570 says).
    pub fn expand(&self, values: &[(&str, &str)]) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => out.push_str(text),
                Part::Variable(name) => {
                    if let Some((_, value)) = values.iter().find(|(n, _)| n == name) {
                        percent_encode(value, &mut out);
                    }
                }
            }
        }
        out
    }
}

fn parse_parts(source: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut rest = source;
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
            if parts.iter().any(|p| p == &Part::Variable(name.to_owned())) {
                return Err(format!("the variable `{name}` appears twice"));
            }
            if matches!(parts.last(), Some(Part::Variable(_))) {
                return Err(format!(
                    "`{{{name}}}` follows another variable directly: put literal text between them so a URI can be split"
                ));
            }
            parts.push(Part::Variable(name.to_owned()));
            rest = &after[close + 1..];
        } else {
            let end = rest.find(['{', '}']).unwrap_or(rest.len());
            if rest[end..].starts_with('}') {
                return Err("a `}` has no matching `{`".to_owned());
            }
            parts.push(Part::Literal(rest[..end].to_owned()));
            rest = &rest[end..];
        }
    }
    Ok(parts)
}

fn percent_encode(value: &str, out: &mut String) {
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 15)]));
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// `None` when an escape is malformed or the bytes are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hi = hex_value(*bytes.get(i + 1)?)?;
            let lo = hex_value(*bytes.get(i + 2)?)?;
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex_value(b: u8) -> Option<u8> {
    char::from(b)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_that_cannot_be_matched_are_rejected() {
        for bad in [
            "a://{x",
            "a://x}",
            "a://{}",
            "a://{+x}",
            "a://{x}{y}",
            "a://{x}/{x}",
            "a://{1x}",
        ] {
            assert!(UriTemplate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn matching_splits_at_literals_and_rejects_empty_values() {
        let t = UriTemplate::parse("repo://{owner}/{name}/README").unwrap();
        let vars = t.match_uri("repo://rust-lang/rust/README").unwrap();
        assert_eq!(vars[0].1, "rust-lang");
        assert_eq!(vars[1].1, "rust");
        assert!(t.match_uri("repo:///rust/README").is_none());
        assert!(t.match_uri("repo://a/b/README/extra").is_none());
        assert!(t.match_uri("repo://a/b%ZZ/README").is_none());
    }

    #[test]
    fn expansion_round_trips_through_matching() {
        let t = UriTemplate::parse("notes://{title}").unwrap();
        let uri = t.expand(&[("title", "a/b c?")]);
        assert_eq!(uri, "notes://a%2Fb%20c%3F");
        assert_eq!(t.match_uri(&uri).unwrap()[0].1, "a/b c?");
    }
}
