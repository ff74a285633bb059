"""Choose how the reader joins the selector, on `quoth bench selector` dumps.

python fusion.py --choose d3.jsonl,d4.jsonl --report d5.jsonl [--out fusion.json]

Each dump line is one question with every candidate the selector saw on each of the
ask's tries (`tries`: the trees' answerability, its threshold, the candidates of the
try), each candidate with the trees' score, the reader's logit (sentences), its
message's Message-ID (`message`), what the reader read of it (`read`: subject,
sender, prev, sentence, next, as `common.py` writes a pair's text) and its labels. The ask is replayed as the engine runs it: the first try that answers gives
the answer, its best candidate the quote.

With the reader, the trees' best `top_k` candidates of a try are ranked again by
`score + weight * reader` (a header fact, which the reader does not read, keeps its
score), and the try answers only when the trees find it answerable and, if the best
is a sentence, its reader logit is at least `gate`.

Figures per question set: cited a right message (of answerable questions), the quote
holds the answer, and a right "I don't know" (of near misses). The setting that
maximises the mean of the first and the last on --choose (ties: more right answers)
is reported on --report.
"""
import argparse
import itertools
import json


def load(paths):
    out = []
    for p in paths.split(","):
        with open(p) as f:
            out += [json.loads(l) for l in f if l.strip()]
    return [q for q in out if q["kind"] in ("fact", "followup", "abstain")]


def replay(q, top_k, weight, gate, trust=1.0):
    """(answered, candidate) for the question."""
    cands = q["candidates"]
    for t in q["tries"]:
        idx = sorted(t["candidates"], key=lambda i: -cands[i]["score"])
        if not idx:
            continue
        if weight is None:
            best = idx[0]
            ok = t["answerable"] >= t["threshold"]
        else:
            top = idx[:top_k]
            fused = lambda i: cands[i]["score"] + weight * (cands[i]["reader"] if cands[i]["reader"] is not None else 0.0)  # noqa
            best = max(top, key=fused)
            r = cands[best]["reader"]
            ok = t["answerable"] >= trust * t["threshold"] and (r is None or gate is None or r >= gate)
        if ok:
            return True, cands[best]
    return False, None


def figures(qs, setting):
    ans = [q for q in qs if q["kind"] != "abstain"]
    nm = [q for q in qs if q["kind"] == "abstain"]
    cited = right = idk = 0
    for q in ans:
        a, c = replay(q, *setting)
        if a and c["gold_message"]:
            cited += 1
        if a and c["label"]:
            right += 1
    for q in nm:
        a, _ = replay(q, *setting)
        idk += int(not a)
    n, m = max(1, len(ans)), max(1, len(nm))
    return {"answerable": len(ans), "near_misses": len(nm), "cited": cited / n, "right": right / n, "idk": idk / m}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--choose", required=True)
    ap.add_argument("--report", default="")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    choose = load(a.choose)
    base = (None, None, None, 1.0)
    grid = [base] + list(itertools.product([3, 5, 8, 12], [0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0],
                                           [None, -3.0, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0],
                                           [0.0, 0.5, 0.75, 1.0]))
    res = []
    for s in grid:
        f = figures(choose, s)
        res.append(((f["cited"] + f["idk"]) / 2, f["right"], f, s))
    # ties go to more right answers, then to the simpler setting (grid order)
    res.sort(key=lambda x: (-x[0], -x[1]))
    fb = figures(choose, base)
    print("choose set, trees alone:", json.dumps(fb))
    for v, _, f, s in res[:8]:
        print(f"choose set, top_k {s[0]} weight {s[1]} gate {s[2]} trust {s[3]}: {json.dumps(f)}")
    best = res[0][3]
    if a.report:
        rep = load(a.report)
        print("report set, trees alone:", json.dumps(figures(rep, base)))
        print(f"report set, chosen top_k {best[0]} weight {best[1]} gate {best[2]} trust {best[3]}:",
              json.dumps(figures(rep, best)))
    if a.out and best != base:
        with open(a.out, "w") as f:
            json.dump({"top_k": best[0], "weight": best[1], "gate": best[2], "trust": best[3]}, f, indent=1)


if __name__ == "__main__":
    main()
