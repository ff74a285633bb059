//! Ranking metrics for retrieval evaluation.

use std::collections::HashSet;

/// Share of the gold items found in the first `k` results.
pub fn recall_at(ranked: &[String], gold: &HashSet<String>, k: usize) -> f64 {
    if gold.is_empty() {
        return 0.0;
    }
    let found = ranked.iter().take(k).filter(|r| gold.contains(*r)).count();
    found as f64 / gold.len() as f64
}

/// Whether any gold item is in the first `k` results (the usual recall@k when a
/// question has one answer, possibly stored as several copies).
pub fn hit_at(ranked: &[String], gold: &HashSet<String>, k: usize) -> f64 {
    f64::from(u8::from(ranked.iter().take(k).any(|r| gold.contains(r))))
}

/// Share of the first `k` results that are gold.
pub fn precision_at(ranked: &[String], gold: &HashSet<String>, k: usize) -> f64 {
    let found = ranked.iter().take(k).filter(|r| gold.contains(*r)).count();
    found as f64 / k as f64
}

/// 1 / rank of the first gold result (0 when none).
pub fn reciprocal_rank(ranked: &[String], gold: &HashSet<String>) -> f64 {
    ranked
        .iter()
        .position(|r| gold.contains(r))
        .map_or(0.0, |i| 1.0 / (i + 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn metrics_on_a_small_ranking() {
        let ranked = s(&["a", "b", "c", "d"]);
        let gold: HashSet<String> = s(&["b", "d", "z"]).into_iter().collect();
        assert!((recall_at(&ranked, &gold, 2) - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(hit_at(&ranked, &gold, 1), 0.0);
        assert_eq!(hit_at(&ranked, &gold, 2), 1.0);
        assert!((precision_at(&ranked, &gold, 4) - 0.5).abs() < 1e-9);
        assert!((reciprocal_rank(&ranked, &gold) - 0.5).abs() < 1e-9);
        assert_eq!(reciprocal_rank(&s(&["x"]), &gold), 0.0);
    }
}
