#!/usr/bin/env python3
"""Trains Quoth's evidence selector from the features the program dumps.

usage: train.py DUMP.jsonl... --out models/selector/selector.json [--report REPORT.json]

Each dump line is one question, as `quoth bench selector --dump` writes it:
  {"id", "set", "split": "train"|"dev"|"test", "answerable": bool,
   "features": [names] (first line only, or every line),
   "candidates": [{"x": [floats], "label": 0|1, "gold_message": 0|1}]}

What it does, split by split (the test split is never read here):
1. Candidate stage: gradient-boosted trees on every candidate of the train split:
   does this candidate (a sentence, a header fact) answer its question?
2. Answerability stage: gradient-boosted trees on each train question's
   aggregates (the best candidates' scores, their fit, the question's type and
   cues), scored with first-stage models that did not see that question (5 folds,
   the T5-Enron questions of one email in one fold): does the evidence hold an
   answer?
3. On the dev split: Platt scaling of both stages into probabilities (is the best
   candidate right?), and the abstention threshold that best balances right
   answers (of answerable questions) and right abstentions (of near misses).
4. Writes both stages, their calibrations and thresholds as JSON for
   src/answer/select/model.rs, with the train (out of fold) and dev figures.
"""
import argparse
import json
import math
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression


def load(paths):
    names = None
    questions = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                q = json.loads(line)
                if "features" in q:
                    if names is not None and q["features"] != names:
                        sys.exit(f"{path}: feature names differ from an earlier dump")
                    names = q["features"]
                if "candidates" in q:
                    questions.append(q)
    if names is None:
        sys.exit("no feature names in the dumps")
    return names, questions


def matrix(questions):
    xs, ys = [], []
    for q in questions:
        for c in q["candidates"]:
            xs.append(c["x"])
            ys.append(c["label"])
    return np.array(xs, dtype=np.float64), np.array(ys, dtype=np.int64)


# Mirrors src/answer/select/answerability.rs: the question-level features.
QUESTION_AGGREGATES = [
    "best", "second", "gap", "top3_mean", "candidates",
    "best_kind_sentence", "best_kind_sender", "best_kind_to", "best_kind_cc",
    "best_kind_subject", "best_kind_attachment", "best_type_fit", "best_focus_in_text",
    "best_lex", "best_sim", "best_slots_present", "best_slots_contradicted",
    "best_retrieval_rank", "max_focus_in_text", "max_focus_in_message", "max_lex",
    "max_sim", "max_slots_present", "max_type_fit", "max_lex_message",
]
BEST_OF = ["kind_sentence", "kind_sender", "kind_to", "kind_cc", "kind_subject",
           "kind_attachment", "type_fit", "focus_in_text", "lex", "sim", "slots_present",
           "slots_contradicted", "retrieval_rank"]
MAX_OF = ["focus_in_text", "focus_in_message", "lex", "sim", "slots_present", "type_fit",
          "lex_message"]
QUESTION_OWN = [
    "q_who", "q_when", "q_how_much", "q_where", "q_yes_no", "q_list", "q_what",
    "cue_sender", "cue_recipient", "cue_address", "cue_subject", "cue_attachment",
    "cue_request", "cue_money", "q_has_focus", "slots", "q_terms", "expects_person",
    "expects_organization", "expects_date", "expects_time", "expects_money",
    "expects_quantity", "expects_place", "expects_phone", "expects_email", "expects_code",
    "scoped",
]


def question_features(names, cands, scores):
    """The question-level vector, from candidate features and first-stage scores."""
    idx = {n: i for i, n in enumerate(names)}
    order = sorted(range(len(cands)), key=lambda i: -scores[i])
    s = [float(scores[i]) for i in order]
    best = s[0] if s else -10.0
    second = s[1] if len(s) > 1 else -10.0
    top3 = sum(s[:3]) / max(1, min(3, len(s))) if s else -10.0
    out = [best, second, best - second, top3, math.log(1 + len(s))]
    first = cands[order[0]]["x"] if s else None
    for n in BEST_OF:
        out.append(first[idx[n]] if first else 0.0)
    for n in MAX_OF:
        out.append(max([0.0] + [c["x"][idx[n]] for c in cands]))
    for n in QUESTION_OWN:
        out.append(first[idx[n]] if first else 0.0)
    return out, (order[0] if s else None)


def group_of(q):
    """T5-Enron questions of one email stay in one fold; others are their own."""
    if q["set"].startswith("t5"):
        return q["id"].rsplit("-", 1)[0]
    return q["set"] + ":" + q["id"]


class Ranker:
    """The candidate stage as a LambdaRank ensemble (LightGBM): trained on each
    question's candidates as one list, so it learns to put an answering candidate
    first rather than to score each candidate alone."""

    def __init__(self, args):
        import lightgbm
        self.model = lightgbm.LGBMRanker(
            objective="lambdarank", n_estimators=args.trees, num_leaves=args.leaves,
            learning_rate=0.05, min_child_samples=20, lambdarank_truncation_level=5,
            random_state=7, verbose=-1)

    def fit(self, questions):
        xs, ys, groups = [], [], []
        for q in questions:
            if not q["candidates"]:
                continue
            for c in q["candidates"]:
                xs.append(c["x"])
                ys.append(c["label"])
            groups.append(len(q["candidates"]))
        self.model.fit(np.array(xs, dtype=np.float64), np.array(ys), group=groups)
        return self

    def decision_function(self, x):
        return self.model.predict(x, raw_score=True)


def fit_candidates(questions, args):
    if args.ranker == "lambdarank":
        return Ranker(args).fit(questions)
    x, y = matrix(questions)
    model = HistGradientBoostingClassifier(
        max_iter=args.trees, max_leaf_nodes=args.leaves, learning_rate=0.05,
        early_stopping=False, random_state=7)
    model.fit(x, y)
    return model


def scores_of(model, q):
    if not q["candidates"]:
        return []
    return list(model.decision_function(np.array([c["x"] for c in q["candidates"]], dtype=np.float64)))


def out_of_fold_scores(questions, args, folds=5):
    """First-stage scores for the train questions from models that did not see them,
    so the second stage learns from scores like those of unseen questions."""
    groups = sorted({group_of(q) for q in questions})
    fold = {g: i % folds for i, g in enumerate(groups)}
    result = {}
    for k in range(folds):
        train = [q for q in questions if fold[group_of(q)] != k]
        test = [q for q in questions if fold[group_of(q)] == k]
        m = fit_candidates(train, args)
        for q in test:
            result[id(q)] = scores_of(m, q)
    return result


def figures(rows, threshold):
    """rows: (answerable probability, best candidate right, answerable question)."""
    answerable = [r for r in rows if r[2]]
    unanswerable = [r for r in rows if not r[2]]
    answered = [r for r in rows if r[0] >= threshold]
    abstained = [r for r in rows if r[0] < threshold]
    return {
        "right_answer": sum(1 for r in answerable if r[0] >= threshold and r[1]) / max(1, len(answerable)),
        "answered_of_answerable": sum(1 for r in answerable if r[0] >= threshold) / max(1, len(answerable)),
        "right_abstention": sum(1 for r in unanswerable if r[0] < threshold) / max(1, len(unanswerable)),
        "answer_precision": sum(1 for r in answered if r[1]) / max(1, len(answered)),
        "abstention_precision": sum(1 for r in abstained if not r[2]) / max(1, len(abstained)),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
    }


def export_ranker(ranker):
    """A LightGBM ensemble as the same flat node arrays (its leaf values carry its
    learning rate; a split sends value <= threshold left; no value is missing)."""
    trees = []
    for info in ranker.model.booster_.dump_model()["tree_info"]:
        t = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}

        def walk(node):
            at = len(t["feature"])
            for k, v in (("feature", -2), ("threshold", -2.0), ("left", -1), ("right", -1), ("value", 0.0)):
                t[k].append(v)
            if "leaf_value" in node:
                t["value"][at] = float(node["leaf_value"])
                return at
            if node["decision_type"] != "<=":
                sys.exit(f"unexpected split {node['decision_type']}")
            t["feature"][at] = int(node["split_feature"])
            t["threshold"][at] = float(node["threshold"])
            left = walk(node["left_child"])
            right = walk(node["right_child"])
            t["left"][at], t["right"][at] = left, right
            return at

        walk(info["tree_structure"])
        trees.append(t)
    return {"kind": "gbdt", "init": 0.0, "learning_rate": 1.0, "trees": trees}


def export_trees(model):
    """The fitted trees as flat node arrays; a leaf has feature -2 and children -1.
    The leaf values already carry the learning rate (HistGradientBoosting applies
    its shrinkage to them), so the exported rate is 1."""
    trees = []
    for iteration in model._predictors:
        nodes = iteration[0].nodes
        leaf = nodes["is_leaf"].astype(bool)
        trees.append(
            {
                "feature": [-2 if l else int(f) for f, l in zip(nodes["feature_idx"], leaf)],
                "threshold": [-2.0 if l else float(t) for t, l in zip(nodes["num_threshold"], leaf)],
                "left": [-1 if l else int(c) for c, l in zip(nodes["left"], leaf)],
                "right": [-1 if l else int(c) for c, l in zip(nodes["right"], leaf)],
                "value": [float(v) for v in nodes["value"]],
            }
        )
    return {
        "kind": "gbdt",
        "init": float(np.ravel(model._baseline_prediction)[0]),
        "learning_rate": 1.0,
        "trees": trees,
    }


def check_export(model, exported, x):
    """The exported trees must score as the fitted model does (the program's
    evaluator walks them the same way: value <= threshold goes left)."""
    sample = x[: min(len(x), 500)]
    want = model.decision_function(sample)
    for row, w in zip(sample, want):
        total = exported["init"]
        for t in exported["trees"]:
            node = 0
            while t["left"][node] >= 0:
                f = t["feature"][node]
                node = t["left"][node] if row[f] <= t["threshold"][node] else t["right"][node]
            total += exported["learning_rate"] * t["value"][node]
        if abs(total - w) > 1e-6:
            sys.exit(f"exported trees disagree with the model: {total} against {w}")


def split_shares(names, exported):
    """Each feature's share of the trees' splits, most used first."""
    counts = [0] * len(names)
    for t in exported["trees"]:
        for f in t["feature"]:
            if f >= 0:
                counts[f] += 1
    total = max(1, sum(counts))
    return sorted(((n, c / total) for n, c in zip(names, counts)), key=lambda p: -p[1])


def platt(scores, labels):
    if min(labels) == max(labels):
        sys.exit("calibration needs right and wrong cases")
    m = LogisticRegression(C=1e6).fit(np.array([[v] for v in scores]), np.array(labels))
    return float(m.coef_[0][0]), float(m.intercept_[0])


def sigmoid(a, b, v):
    return 1 / (1 + math.exp(-(a * v + b)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dumps", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--report")
    ap.add_argument("--trees", type=int, default=300)
    ap.add_argument("--leaves", type=int, default=15)
    ap.add_argument("--ranker", choices=["pointwise", "lambdarank"], default="lambdarank",
                    help="the candidate stage: a classifier of each candidate, or a "
                         "LambdaRank ensemble over each question's candidates")
    ap.add_argument("--answerable-target", choices=["has_positive", "best_right"],
                    default="has_positive",
                    help="what the answerability stage learns: that the evidence holds "
                         "an answer, or that its best candidate is one")
    args = ap.parse_args()

    names, questions = load(args.dumps)
    train = [q for q in questions if q["split"] == "train"]
    dev = [q for q in questions if q["split"] == "dev"]
    if not train or not dev:
        sys.exit(f"need train and dev questions (have {len(train)} and {len(dev)})")
    x, y = matrix(train)
    print(f"train: {len(train)} questions, {len(y)} candidates, {y.sum()} positive")

    # Stage 1: candidates. Stage 2: questions, on out-of-fold first-stage scores.
    candidate_model = fit_candidates(train, args)
    oof = out_of_fold_scores(train, args)
    qx, qy = [], []
    for q in train:
        v, b = question_features(names, q["candidates"], oof[id(q)])
        qx.append(v)
        if args.answerable_target == "best_right":
            qy.append(1 if b is not None and q["candidates"][b]["label"] else 0)
        else:
            qy.append(1 if q.get("has_positive") else 0)
    question_model = HistGradientBoostingClassifier(
        max_iter=150, max_leaf_nodes=4, learning_rate=0.05, early_stopping=False,
        random_state=7)
    question_model.fit(np.array(qx), np.array(qy))

    # On dev: calibrate both stages and choose the thresholds.
    cand_scores, cand_labels = [], []
    rows_raw = []
    for q in dev:
        sc = scores_of(candidate_model, q)
        v, best = question_features(names, q["candidates"], sc)
        raw = float(question_model.decision_function(np.array([v]))[0])
        right = bool(best is not None and q["candidates"][best]["label"])
        rows_raw.append((raw, right, q["answerable"]))
        if best is not None:
            cand_scores.append(sc[best])
            cand_labels.append(int(right))
    ca, cb = platt(cand_scores, cand_labels)
    qa, qb = platt([r[0] for r in rows_raw], [int(r[1]) for r in rows_raw])
    rows = [(sigmoid(qa, qb, r[0]), r[1], r[2]) for r in rows_raw]
    best = None
    for t in sorted({r[0] for r in rows} | {0.5}):
        f = figures(rows, t)
        key = (min(f["right_answer"], f["right_abstention"]), f["right_answer"])
        if best is None or key > best[0]:
            best = (key, t, f)
    _, threshold, dev_fig = best
    # The candidate stage's floor for further quotes: a right-or-wrong even chance.
    cand_threshold = 0.5

    train_rows = []
    for q in train:
        sc = oof[id(q)]
        v, b = question_features(names, q["candidates"], sc)
        raw = float(question_model.decision_function(np.array([v]))[0])
        train_rows.append((sigmoid(qa, qb, raw), bool(b is not None and q["candidates"][b]["label"]), q["answerable"]))
    train_fig = figures(train_rows, threshold)
    print(f"dev threshold {threshold:.3f}: {dev_fig}")
    print(f"train (out of fold) at that threshold: {train_fig}")

    qnames = QUESTION_AGGREGATES + QUESTION_OWN
    candidate_trees = (export_ranker(candidate_model) if args.ranker == "lambdarank"
                       else export_trees(candidate_model))
    question_trees = export_trees(question_model)
    check_export(candidate_model, candidate_trees, x)
    check_export(question_model, question_trees, np.array(qx))
    importances = split_shares(names, candidate_trees)[:15]
    q_importances = split_shares(qnames, question_trees)[:10]
    out = {
        "features": names,
        "model": candidate_trees,
        "calibration": {"a": ca, "b": cb},
        "threshold": cand_threshold,
        "answerability": {
            "features": qnames,
            "model": question_trees,
            "calibration": {"a": qa, "b": qb},
            "threshold": threshold,
        },
        "trained": {
            "train_questions": len(train),
            "dev_questions": len(dev),
            "train_out_of_fold": train_fig,
            "dev": dev_fig,
            "sets": sorted({f"{q['set']} ({q['split']})" for q in questions}),
            "top_candidate_features": [[n, round(float(v), 4)] for n, v in importances],
            "top_question_features": [[n, round(float(v), 4)] for n, v in q_importances],
        },
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump(out["trained"], f, indent=2)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
