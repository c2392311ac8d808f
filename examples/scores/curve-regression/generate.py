#!/usr/bin/env python3
"""Writes base.csv and new.csv: two models' scores on the same 2,000 presentations of 400 subjects
(generic score format id,label,species,score,split,subject; higher = more bona fide).

The new model keeps every decision at the operating threshold 0.55 (each score stays on its side
of it), so APCER and BPCER at that threshold are unchanged; below the threshold it pulls the
attacks towards it (a = 0.55 - (0.55 - a) * 0.3), which raises the EER by about 2 points: a
regression `padbench compare` must catch with its paired bootstrap, not with the rates at 0.55.

Run: python3 generate.py (standard library only; random.Random(30) fixes every value).
"""
import random

THRESHOLD = 0.55
rng = random.Random(30)
rows = []
for kind, centre, count in (("bonafide", 0.7, 200), ("attack", 0.3, 200)):
    for s in range(count):
        subject = f"{'bf' if kind == 'bonafide' else 'at'}{s:03d}"
        offset = rng.gauss(0, 0.03)
        for k in range(5):
            score = min(0.999, max(0.001, rng.gauss(centre + offset, 0.1)))
            rows.append((f"{subject}_{k}", kind, "print" if kind == "attack" else "", score, subject))


def pulled(kind, score):
    if kind == "attack" and score < THRESHOLD:
        return THRESHOLD - (THRESHOLD - score) * 0.3
    return score


for name, transform in (("base", lambda kind, s: s), ("new", pulled)):
    with open(f"{name}.csv", "w") as out:
        out.write("id,label,species,score,split,subject\n")
        for id_, kind, species, score, subject in rows:
            out.write(f"{id_},{kind},{species},{transform(kind, score):.6f},eval,{subject}\n")
