//! Ranking metrics for retrieval evaluation. A result stands for one email and the
//! ids of all its copies, so an email listed once for its copies counts as found
//! whichever copy is shown.

use std::collections::HashSet;

/// The ids one result stands for.
pub type Result = [String];

fn is_gold(result: &Result, gold: &HashSet<String>) -> bool {
    result.iter().any(|id| gold.contains(id))
}

/// Share of the gold items found in the first `k` results.
pub fn recall_at<R: AsRef<Result>>(ranked: &[R], gold: &HashSet<String>, k: usize) -> f64 {
    if gold.is_empty() {
        return 0.0;
    }
    let found: HashSet<&String> = ranked
        .iter()
        .take(k)
        .flat_map(|r| r.as_ref().iter().filter(|id| gold.contains(*id)))
        .collect();
    found.len() as f64 / gold.len() as f64
}

/// Whether any gold item is in the first `k` results (the usual recall@k when a
/// question has one answer, possibly stored as several copies).
pub fn hit_at<R: AsRef<Result>>(ranked: &[R], gold: &HashSet<String>, k: usize) -> f64 {
    f64::from(u8::from(
        ranked.iter().take(k).any(|r| is_gold(r.as_ref(), gold)),
    ))
}

/// Share of the first `k` results that are gold.
pub fn precision_at<R: AsRef<Result>>(ranked: &[R], gold: &HashSet<String>, k: usize) -> f64 {
    let found = ranked
        .iter()
        .take(k)
        .filter(|r| is_gold(r.as_ref(), gold))
        .count();
    found as f64 / k as f64
}

/// 1 / rank of the first gold result (0 when none).
pub fn reciprocal_rank<R: AsRef<Result>>(ranked: &[R], gold: &HashSet<String>) -> f64 {
    ranked
        .iter()
        .position(|r| is_gold(r.as_ref(), gold))
        .map_or(0.0, |i| 1.0 / (i + 1) as f64)
}

/// How far the mean of `b` falls under the mean of `a`, the same items scored
/// twice (one question under two retrieval modes), with the standard error of that
/// mean difference: a gap of one or two standard errors is what a small question
/// set shows by chance.
pub fn paired_gap(a: &[f64], b: &[f64]) -> (f64, f64) {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len();
    if n < 2 {
        return (d.first().copied().unwrap_or(0.0), 0.0);
    }
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (mean, (var / n as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<Vec<String>> {
        v.iter().map(|x| vec![x.to_string()]).collect()
    }

    fn gold(v: &[&str]) -> HashSet<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn metrics_on_a_small_ranking() {
        let ranked = s(&["a", "b", "c", "d"]);
        let gold = gold(&["b", "d", "z"]);
        assert!((recall_at(&ranked, &gold, 2) - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(hit_at(&ranked, &gold, 1), 0.0);
        assert_eq!(hit_at(&ranked, &gold, 2), 1.0);
        assert!((precision_at(&ranked, &gold, 4) - 0.5).abs() < 1e-9);
        assert!((reciprocal_rank(&ranked, &gold) - 0.5).abs() < 1e-9);
        assert_eq!(reciprocal_rank(&s(&["x"]), &gold), 0.0);
    }

    #[test]
    fn a_result_counts_for_every_copy_it_stands_for() {
        // The first result is shown as copy "a2", which the gold lists as "a1".
        let ranked = vec![
            vec!["a2".to_string(), "a1".to_string(), "a3".to_string()],
            vec!["x".to_string()],
        ];
        let gold = gold(&["a1", "a3"]);
        assert_eq!(reciprocal_rank(&ranked, &gold), 1.0);
        assert_eq!(hit_at(&ranked, &gold, 1), 1.0);
        assert!((recall_at(&ranked, &gold, 1) - 1.0).abs() < 1e-9);
        assert!(
            (precision_at(&ranked, &gold, 2) - 0.5).abs() < 1e-9,
            "one email, one result"
        );
    }

    #[test]
    fn a_paired_gap_is_the_mean_difference_with_its_standard_error() {
        // Differences 0, 0, 0.5, 0.5: mean 0.25, sample deviation 0.2887, n = 4.
        let a = [1.0, 0.5, 1.0, 0.5];
        let b = [1.0, 0.5, 0.5, 0.0];
        let (gap, se) = paired_gap(&a, &b);
        assert!((gap - 0.25).abs() < 1e-9);
        assert!((se - 0.288_675_134_6 / 2.0).abs() < 1e-6, "{se}");
        // The same scores twice: no gap, no spread.
        assert_eq!(paired_gap(&a, &a), (0.0, 0.0));
        // A gap the same on every question has no spread either.
        let (gap, se) = paired_gap(&[1.0, 1.0, 1.0], &[0.5, 0.5, 0.5]);
        assert!((gap - 0.5).abs() < 1e-9 && se == 0.0);
    }
}
