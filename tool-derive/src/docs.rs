//! Doc comments to descriptions, faithfully: common indentation removed, markdown and
//! paragraph breaks kept, a rustdoc `# Arguments` section split out, nothing invented.

use proc_macro2::Span;

use crate::attr::doc_literal;
use crate::ctxt::Ctxt;

/// The text of an item's doc comments, and the span of the first one.
pub struct DocText {
    pub text: String,
    pub span: Span,
}

/// Joins `#[doc = "..."]` attributes into one dedented text. Non-literal doc attributes
/// (`#[doc = include_str!(..)]`) cannot be read by a macro and are reported.
pub fn collect(attrs: &[syn::Attribute], cx: &mut Ctxt) -> Option<DocText> {
    let mut lines: Vec<String> = Vec::new();
    let mut span = None;
    for attr in attrs {
        match doc_literal(attr) {
            None => {}
            Some(Ok(lit)) => {
                span.get_or_insert(lit.span());
                // `split`, not `lines`: an empty `///` line is a paragraph break and must survive.
                lines.extend(lit.value().split('\n').map(str::to_string));
            }
            Some(Err(expr)) => cx.error_spanned_by(
                expr,
                "#[tool] can only read literal doc comments; use `description = \"...\"` instead",
            ),
        }
    }
    let text = dedent(&lines);
    match (text.is_empty(), span) {
        (false, Some(span)) => Some(DocText { text, span }),
        _ => None,
    }
}

/// Removes the indentation common to all non-blank lines, trailing whitespace, and blank
/// lines at the start and end.
pub fn dedent(lines: &[String]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|l| {
            if l.trim().is_empty() {
                ""
            } else {
                l[indent..].trim_end()
            }
        })
        .collect();
    let start = body
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(body.len());
    let end = body
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    body[start..end].join("\n")
}

/// One ``* `name` - text`` bullet of an `# Arguments` section.
pub struct ArgumentDoc {
    pub name: String,
    pub text: String,
}

/// Splits a rustdoc `# Arguments` (or `# Parameters`) section out of a description. Returns the
/// description without it and the documented arguments, in order.
pub fn split_arguments_section(text: &str) -> (String, Vec<ArgumentDoc>) {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|l| is_arguments_heading(l)) else {
        return (text.to_string(), Vec::new());
    };
    let level = heading_level(lines[start]);
    let end = lines[start + 1..]
        .iter()
        .position(|l| heading_level(l).is_some_and(|h| Some(h) <= level))
        .map_or(lines.len(), |i| start + 1 + i);

    let mut args: Vec<ArgumentDoc> = Vec::new();
    for line in &lines[start + 1..end] {
        let trimmed = line.trim();
        if let Some(arg) = parse_bullet(trimmed) {
            args.push(arg);
        } else if !trimmed.is_empty() {
            // A continuation line of the previous bullet.
            if let Some(last) = args.last_mut() {
                if !last.text.is_empty() {
                    last.text.push(' ');
                }
                last.text.push_str(trimmed);
            }
        }
    }

    let mut kept: Vec<&str> = lines[..start].to_vec();
    let rest = &lines[end..];
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    if !rest.is_empty() && !kept.is_empty() {
        kept.push("");
    }
    kept.extend(rest.iter().skip_while(|l| l.trim().is_empty()));
    (kept.join("\n"), args)
}

fn heading_level(line: &str) -> Option<usize> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    (hashes > 0 && line[hashes..].starts_with(' ')).then_some(hashes)
}

fn is_arguments_heading(line: &str) -> bool {
    heading_level(line).is_some_and(|h| {
        let title = line[h..].trim().to_ascii_lowercase();
        title == "arguments" || title == "parameters"
    })
}

/// ``* `name` - text``, ``- `name`: text``, ``* name - text``.
fn parse_bullet(line: &str) -> Option<ArgumentDoc> {
    let rest = line
        .strip_prefix("* ")
        .or_else(|| line.strip_prefix("- "))?
        .trim_start();
    let (name, after) = if let Some(quoted) = rest.strip_prefix('`') {
        let close = quoted.find('`')?;
        (&quoted[..close], &quoted[close + 1..])
    } else {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        (&rest[..end], &rest[end..])
    };
    if name.is_empty() {
        return None;
    }
    let after = after.trim_start();
    let text = after
        .strip_prefix("- ")
        .or_else(|| after.strip_prefix(": "))
        .or_else(|| after.strip_prefix("— "))
        .or_else(|| after.strip_prefix("– "))
        .or_else(|| (after == "-" || after == ":").then_some(""))?;
    Some(ArgumentDoc {
        name: name.trim_start_matches("r#").to_string(),
        text: text.trim().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn dedent_keeps_relative_indentation_and_paragraphs() {
        let text = dedent(&lines(&[
            "",
            " Title.",
            "",
            " Code:",
            "     let x = 1;",
            " ",
        ]));
        assert_eq!(text, "Title.\n\nCode:\n    let x = 1;");
    }

    #[test]
    fn arguments_section_is_split_out_with_continuations() {
        let (desc, args) = split_arguments_section(
            "Searches.\n\n# Arguments\n\n* `query` - What to find.\n  More words.\n* `limit`: How many.\n\n# Errors\n\nNever.",
        );
        assert_eq!(desc, "Searches.\n\n# Errors\n\nNever.");
        assert_eq!(args.len(), 2);
        assert_eq!(args[0].name, "query");
        assert_eq!(args[0].text, "What to find. More words.");
        assert_eq!(args[1].text, "How many.");
    }

    #[test]
    fn text_without_an_arguments_section_is_unchanged() {
        let (desc, args) = split_arguments_section("Just text.\n\n* a bullet");
        assert_eq!(desc, "Just text.\n\n* a bullet");
        assert!(args.is_empty());
    }
}
