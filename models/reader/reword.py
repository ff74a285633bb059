"""Another wording of a question: other forms of its words, and function words put in
or taken out ("what time does the coach leave?", "what time coach leaves"). Used by
synth_questions.py (--natural-share) and train.py (--tie)."""
import re

SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "er", "ed", "es", "s", "ly", "ment", "ments")
AUX = ["does", "did", "is", "was", "will", "do", "are", "should", "can", "would"]
SUBJECT = ["the", "the", "the", "we", "I", "they", "our", "you", "he", "she"]
FUNCTION = set(AUX) | {"the", "a", "an", "were", "could"}
WH = {"what", "when", "who", "where", "which", "how", "whom", "why"}


def stem(word):
    """A crude stem shared by a word's inflections (leaves, leave, leaving -> leav)."""
    for suf in SUFFIXES:
        if word.endswith(suf) and len(word) - len(suf) >= 4:
            word = word[: -len(suf)]
            if len(word) > 4 and word[-1] == word[-2] and word[-1] not in "ls":
                word = word[:-1]  # planning -> plan
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def word_forms(vocab):
    """stem -> the words of that stem in `vocab` (another form of a word is one the
    vocabulary holds, so it is a real word)."""
    forms = {}
    for w in vocab:
        if w.isalpha() and len(w) > 3:
            forms.setdefault(stem(w), []).append(w)
    return forms


def another_form(word, forms, rng):
    others = [w for w in forms.get(stem(word), []) if w != word]
    return rng.choice(others) if others else word


def reword(question, rng, forms):
    """The question with some words in another form and, after a question word,
    an auxiliary and a subject put in, or its function words taken out."""
    words = question.rstrip("?").split()
    if not words:
        return question
    out = [another_form(w, forms, rng) if w.isalpha() and w.islower() and rng.random() < 0.5 else w
           for w in words]
    if any(w.lower() in FUNCTION for w in out[1:]):
        if rng.random() < 0.5:
            out = out[:1] + [w for w in out[1:] if w.lower() not in FUNCTION]
    elif out[0].lower() in WH and rng.random() < 0.7:
        at = 2 if len(out) > 2 and out[1].lower() in ("time", "much", "many", "day", "date") else 1
        out = out[:at] + [rng.choice(AUX), rng.choice(SUBJECT)] + out[at:]
    text = " ".join(out)
    return text + "?" if question.endswith("?") else text
