//! "Did you mean …?" for names a model got slightly wrong.

/// The candidate closest to `wrong`, if one is close enough to be a likely typo: equal ignoring
/// case and `-`/`_`, or within an edit distance of a third of the longer name (at least 1).
pub(crate) fn closest<'a, I>(wrong: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let folded = fold(wrong);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let (wrong_len, candidate_len) = (wrong.chars().count(), candidate.chars().count());
        let limit = (wrong_len.max(candidate_len) / 3).max(1);
        // The distance is at least the difference in length: skip hopeless candidates without
        // the quadratic comparison (a model can send a megabyte-long name).
        let same_folded = fold(candidate) == folded;
        if wrong_len.abs_diff(candidate_len) > limit && !same_folded {
            continue;
        }
        let distance = if same_folded {
            0
        } else {
            edit_distance(wrong, candidate)
        };
        // Replacing every character is no typo: `c` must not suggest `a`.
        let plausible = same_folded || distance < wrong_len.min(candidate_len);
        if plausible && distance <= limit && best.is_none_or(|(d, _)| distance < d) {
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

/// Edit distance counting an insertion, deletion, substitution or swap of two neighbouring
/// characters as one edit (optimal string alignment): models often swap letters (`qurey`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for (i, row) in d.chunks_mut(width).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

/// Formats names as `'a', 'b', 'c'` for a message.
pub(crate) fn quoted_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
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
    fn example_closest() {
        assert_eq!(
            closest("get_wether", ["get_weather", "search"]),
            Some("get_weather")
        );
        assert_eq!(closest("GetWeather", ["get_weather"]), Some("get_weather"));
        assert_eq!(closest("zzz", ["get_weather"]), None);
    }

    #[test]
    fn example_quoted_list() {
        assert_eq!(quoted_list(["a", "b"]), "'a', 'b'");
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("qurey", "query"), 1);
    }

    #[test]
    fn picks_the_nearest_of_several_close_names() {
        assert_eq!(closest("limt", ["limit", "list", "lint"]), Some("limit"));
        assert_eq!(closest("qurey", ["query", "tags"]), Some("query"));
    }

    #[test]
    fn far_names_get_no_suggestion() {
        assert_eq!(closest("completely_else", ["query", "tags"]), None);
        assert_eq!(closest("c", ["a", "b"]), None);
    }
}
