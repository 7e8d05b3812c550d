//! "Did you mean …?" for names a model got slightly wrong.

/// The candidate closest to `wrong`, if one is close enough to be a likely typo: equal ignoring
/// case and `-`/`_`, or within an edit distance of a third of the longer name (at least 1).
///
/// ```
/// use tool_core::suggest::closest;
/// assert_eq!(closest("get_wether", ["get_weather", "search"]), Some("get_weather"));
/// assert_eq!(closest("GetWeather", ["get_weather"]), Some("get_weather"));
/// assert_eq!(closest("zzz", ["get_weather"]), None);
/// ```
pub fn closest<'a, I>(wrong: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let folded = fold(wrong);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let distance = if fold(candidate) == folded {
            0
        } else {
            edit_distance(wrong, candidate)
        };
        let limit = (wrong.chars().count().max(candidate.chars().count()) / 3).max(1);
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance over chars, in O(len_a * len_b) time and O(len_b) space.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Formats names as `'a', 'b', 'c'` for a message.
///
/// ```
/// assert_eq!(tool_core::suggest::quoted_list(["a", "b"]), "'a', 'b'");
/// ```
pub fn quoted_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (i, name) in names.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('\'');
        out.push_str(name);
        out.push('\'');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", "abc"), 0);
    }

    #[test]
    fn picks_the_nearest_of_several_close_names() {
        assert_eq!(closest("limt", ["limit", "list", "lint"]), Some("limit"));
        assert_eq!(closest("qurey", ["query", "tags"]), Some("query"));
    }

    #[test]
    fn far_names_get_no_suggestion() {
        assert_eq!(closest("completely_else", ["query", "tags"]), None);
    }
}
