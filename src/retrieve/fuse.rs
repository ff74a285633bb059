//! Reciprocal Rank Fusion: combines ranked lists by rank, not by score, so BM25 and
//! cosine scores need no common scale.

use std::collections::HashMap;
use std::hash::Hash;

/// The constant of RRF (Cormack et al. 2009): damps the head of each list.
pub const RRF_K: f32 = 60.0;

/// One fused item with its rank in each input list (1-based; None when absent).
#[derive(Debug, Clone, PartialEq)]
pub struct Fused<T> {
    pub item: T,
    pub score: f32,
    pub ranks: Vec<Option<usize>>,
}

/// Fuses ranked lists (best first). `weights[i]` scales list i's contribution.
/// Ties break by best single rank, then by first appearance, so output is deterministic.
pub fn reciprocal_rank_fusion<T: Clone + Eq + Hash>(
    lists: &[Vec<T>],
    weights: &[f32],
) -> Vec<Fused<T>> {
    let mut by_item: HashMap<T, usize> = HashMap::new();
    let mut out: Vec<Fused<T>> = Vec::new();
    for (li, list) in lists.iter().enumerate() {
        let w = weights.get(li).copied().unwrap_or(1.0);
        for (rank0, item) in list.iter().enumerate() {
            let idx = *by_item.entry(item.clone()).or_insert_with(|| {
                out.push(Fused {
                    item: item.clone(),
                    score: 0.0,
                    ranks: vec![None; lists.len()],
                });
                out.len() - 1
            });
            let entry = &mut out[idx];
            if entry.ranks[li].is_none() {
                entry.ranks[li] = Some(rank0 + 1);
                entry.score += w / (RRF_K + (rank0 + 1) as f32);
            }
        }
    }
    let first_seen: HashMap<usize, usize> = (0..out.len()).map(|i| (i, i)).collect();
    let mut indexed: Vec<(usize, Fused<T>)> = out.into_iter().enumerate().collect();
    indexed.sort_by(|(ia, a), (ib, b)| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| best_rank(a).cmp(&best_rank(b)))
            .then_with(|| first_seen[ia].cmp(&first_seen[ib]))
    });
    indexed.into_iter().map(|(_, f)| f).collect()
}

fn best_rank<T>(f: &Fused<T>) -> usize {
    f.ranks
        .iter()
        .flatten()
        .copied()
        .min()
        .unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_in_both_lists_rise() {
        let lexical = vec!["a", "b", "c"];
        let dense = vec!["c", "d", "a"];
        let fused = reciprocal_rank_fusion(&[lexical, dense], &[1.0, 1.0]);
        let order: Vec<&str> = fused.iter().map(|f| f.item).collect();
        assert_eq!(order[0], "a");
        assert_eq!(order[1], "c");
        assert_eq!(fused[0].ranks, vec![Some(1), Some(3)]);
        assert_eq!(fused.len(), 4);
    }

    #[test]
    fn weights_and_duplicates() {
        let fused = reciprocal_rank_fusion(&[vec![1, 1, 2], vec![2]], &[1.0, 2.0]);
        assert_eq!(fused[0].item, 2);
        assert_eq!(fused[1].ranks, vec![Some(1), None]);
    }

    #[test]
    fn empty_lists_fuse_to_nothing() {
        let fused: Vec<Fused<u8>> = reciprocal_rank_fusion(&[vec![], vec![]], &[]);
        assert!(fused.is_empty());
    }
}
