//! Text to search terms: splitting identifiers into words, stop words, light stemming, the
//! verb synonyms a query is widened with, and which query words name argument values.

use std::collections::HashMap;

/// Words that say nothing about which tool is meant ("the", "please", "what").
const STOP_WORDS: &[&str] = &[
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "could", "do",
    "does", "for", "from", "has", "have", "how", "i", "in", "into", "is", "it", "its", "me", "my",
    "need", "of", "on", "or", "our", "please", "should", "some", "tell", "that", "the", "their",
    "them", "then", "there", "these", "this", "to", "us", "want", "was", "what", "when", "where",
    "which", "who", "will", "with", "would", "you", "your",
];

/// Words the stemmer leaves alone: taking their final "s" would make them another word
/// ("news" is not "new").
const KEEP_AS_IS: &[&str] = &["always", "news", "perhaps", "series", "species", "whereas"];

/// Groups of words a user and a tool's author use for the same action or thing ("find" in a
/// request, "search" in a tool's name). A query word brings in the other words of its group
/// at a lower weight.
const SYNONYMS: &[&[&str]] = &[
    &["search", "find", "lookup", "look", "query"],
    &[
        "get", "read", "fetch", "retrieve", "show", "view", "display",
    ],
    &["list", "enumerate"],
    &["create", "make", "add"],
    &["delete", "remove", "erase"],
    // Not "change": as a noun ("climate change") it names no action.
    &["update", "edit", "modify", "replace"],
    &["navigate", "open", "go", "visit"],
    // Not "type": as a noun ("file types") it names no action.
    &["fill", "enter", "input"],
    &["click", "press", "tap"],
    &["screenshot", "capture"],
    &["directory", "folder"],
    &["file", "document"],
    &["information", "info", "detail", "metadata"],
    &["web", "internet", "online"],
    &["move", "drag"],
];

/// The words of a text, lower-cased: runs of letters and digits, with `camelCase` and
/// `HTTPServer` split where the case changes (`snake_case`, `kebab-case` and `a.b` split at
/// their separators already).
pub(crate) fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut out);
            continue;
        }
        if c.is_uppercase() && !current.is_empty() {
            let prev = chars.get(i.wrapping_sub(1)).copied().unwrap_or(' ');
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            // aB, 1B: a new word; ABc: the B starts a new word after an acronym.
            if prev.is_lowercase()
                || prev.is_numeric()
                || (prev.is_uppercase() && next.is_lowercase())
            {
                flush(&mut current, &mut out);
            }
        }
        current.extend(c.to_lowercase());
    }
    flush(&mut current, &mut out);
    out
}

fn flush(current: &mut String, out: &mut Vec<String>) {
    if !current.is_empty() {
        out.push(std::mem::take(current));
    }
}

/// The plain tokenizer of the BM25 baseline: lower-cased runs of letters and digits, nothing
/// else.
pub(crate) fn plain_words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A light stemmer: plurals, "-ing" and "-ed", and a final "e", so that "create", "creates",
/// "created" and "creating" meet. Stems need not be words; queries and tools get the same.
pub(crate) fn stem(word: &str) -> String {
    let n = word.chars().count();
    if n <= 3 || word.chars().all(|c| c.is_ascii_digit()) || KEEP_AS_IS.contains(&word) {
        return word.to_owned();
    }
    let mut w = word.to_owned();
    if w.ends_with("ies") && n > 4 {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if ["sses", "xes", "zes", "ches", "shes"]
        .iter()
        .any(|s| w.ends_with(s))
    {
        w.truncate(w.len() - 2);
    } else if w.ends_with('s') && !["ss", "us", "is"].iter().any(|s| w.ends_with(s)) {
        w.pop();
    }
    for suffix in ["ing", "ed"] {
        if w.ends_with(suffix) && w.chars().count() >= suffix.len() + 3 {
            w.truncate(w.len() - suffix.len());
            // "dropped" → "dropp" → "drop"; "called" keeps its "ll".
            let mut tail = w.chars().rev();
            if let (Some(a), Some(b)) = (tail.next(), tail.next()) {
                if w.chars().count() >= 3 && a == b && !"lsz".contains(a) {
                    w.pop();
                }
            }
            break;
        }
    }
    if w.ends_with('e') && w.chars().count() > 3 {
        w.pop();
    }
    w
}

/// The search terms of a tool's text: its words less stop words (when `drop_stop_words`)
/// and one-letter words, stemmed.
pub(crate) fn terms(text: &str, drop_stop_words: bool) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| w.chars().count() > 1 && !(drop_stop_words && STOP_WORDS.contains(&w.as_str())))
        .map(|w| stem(&w))
        .collect()
}

/// Weights of the query terms, built-in ranking: a word inside an argument value (a path,
/// a URL, a selector, a quoted string, anything with a digit) says what to call the tool
/// with rather than which tool, so it counts `value_weight`; synonyms count `synonym_weight`
/// times the word that brought them in.
pub(crate) fn query_terms(
    query: &str,
    value_weight: f64,
    synonym_weight: f64,
) -> Vec<(String, f64)> {
    let mut weights: Vec<(String, f64)> = Vec::new();
    let put = |weights: &mut Vec<(String, f64)>, term: String, weight: f64| match weights
        .iter_mut()
        .find(|(t, _)| *t == term)
    {
        Some((_, w)) => *w = w.max(weight),
        None => weights.push((term, weight)),
    };
    for chunk in query.split_whitespace() {
        let weight = if is_value(chunk) { value_weight } else { 1.0 };
        for term in terms(chunk, true) {
            put(&mut weights, term, weight);
        }
    }
    let direct: Vec<(String, f64)> = weights.clone();
    let groups = synonym_groups();
    for (term, weight) in direct {
        if let Some(group) = groups.get(term.as_str()) {
            for other in group.iter().filter(|o| **o != term) {
                put(&mut weights, other.clone(), weight * synonym_weight);
            }
        }
    }
    weights
}

/// Whether a whitespace-separated piece of a query is an argument value rather than words.
fn is_value(chunk: &str) -> bool {
    let inner = chunk.trim_matches(|c: char| ".,;:!?()[]{}".contains(c));
    let hyphenated_words = {
        let mut parts = inner.split('-');
        let all_letters = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphabetic());
        matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None) if all_letters(a) && all_letters(b))
    };
    if hyphenated_words {
        return false;
    }
    inner.contains(|c: char| "/\\.#_=:@".contains(c) || c.is_ascii_digit())
        || inner.starts_with(['\'', '"', '`'])
        || inner.ends_with(['\'', '"', '`'])
}

/// Stemmed word → the stemmed words of its synonym group.
fn synonym_groups() -> &'static HashMap<String, Vec<String>> {
    static GROUPS: std::sync::OnceLock<HashMap<String, Vec<String>>> = std::sync::OnceLock::new();
    GROUPS.get_or_init(|| {
        let mut map = HashMap::new();
        for group in SYNONYMS {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            for s in &stems {
                map.entry(s.clone())
                    .or_insert_with(Vec::new)
                    .extend(stems.iter().cloned());
            }
        }
        map
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(
            words("getHTTPResponse_code-now"),
            ["get", "http", "response", "code", "now"]
        );
        assert_eq!(words("iframeSelector"), ["iframe", "selector"]);
        assert_eq!(plain_words("list_dir Foo"), ["list", "dir", "foo"]);
    }

    #[test]
    fn inflections_meet() {
        for w in ["create", "creates", "created", "creating"] {
            assert_eq!(stem(w), "creat", "{w}");
        }
        assert_eq!(stem("directories"), "directory");
        assert_eq!(stem("news"), "news");
        assert_eq!(stem("dropped"), "drop");
        assert_eq!(stem("called"), "call");
        assert_eq!(stem("status"), "status");
    }

    #[test]
    fn values_count_less_and_synonyms_join() {
        let q = query_terms("Find ./src/main.py", 0.3, 0.8);
        let weight = |t: &str| q.iter().find(|(x, _)| x == t).map(|(_, w)| *w);
        assert_eq!(weight("find"), Some(1.0));
        assert_eq!(weight("search"), Some(0.8));
        assert_eq!(weight("src"), Some(0.3));
        assert_eq!(weight("the"), None);
    }
}
