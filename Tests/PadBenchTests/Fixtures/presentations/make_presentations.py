"""Writes the per-frame bob score files of PresentationBobTests and the values bob.measure gives
on the per-video mean scores (and on the frames themselves), once:

    python3 -m venv v && v/bin/pip install bob.measure==6.1.1 && v/bin/python make_presentations.py

bob.measure 6.1.1, NumPy 1.26; seed 20261124. The Swift tests never run Python.

- frames_two_species.txt (bob 4-column): 12 bona fide videos, 9 print and 7 replay videos with 3
  to 9 frames each, one frame `nan` (a failure: left out of its video's mean). At the fixed
  threshold T = 0.25: BPCER and APCER per species = bob.measure.farfrr on the per-video means
  (numpy.nanmean of the video's frames), and on the frames themselves (NaN dropped, as
  bob.measure.utils.get_fta does).
- frames_one_species.txt: bona fide and print only; the EER threshold is
  bob.measure.eer_threshold on the per-video means, with farfrr there.
JSON floats are repr() strings (exact).
"""
import json
import numpy as np
import bob.measure as bm

rng = np.random.default_rng(20261124)
T = 0.25


def videos(species_counts):
    rows = []  # (claimed, real, label, score)
    for species, count, mu in species_counts:
        for v in range(count):
            n = int(rng.integers(3, 10))
            video_mu = rng.normal(mu, 0.5)
            for _ in range(n):
                s = round(float(rng.normal(video_mu, 0.4)), 4)
                if species == "bonafide":
                    rows.append((f"c{v:02d}", f"c{v:02d}", f"real/client{v:02d}/video{v:02d}", s))
                else:
                    rows.append((f"c{v:02d}", "attack", f"attack/{species}/client{v:02d}/video{v:02d}", s))
    return rows


def write(name, rows):
    with open(name, "w") as f:
        for c, r, label, s in rows:
            f.write(f"{c} {r} {label} {'nan' if s != s else repr(s)}\n")


def split(rows):
    by_video, order = {}, []
    for c, r, label, s in rows:
        if label not in by_video:
            by_video[label] = []
            order.append(label)
        by_video[label].append(s)
    bf = np.array([np.nanmean(by_video[v]) for v in order if v.startswith("real/")])
    att = {}
    for v in order:
        if v.startswith("attack/"):
            att.setdefault(v.split("/")[1], []).append(np.nanmean(by_video[v]))
    frames_bf = np.array([s for c, r, l, s in rows if l.startswith("real/") and s == s])
    frames_att = {}
    for c, r, l, s in rows:
        if l.startswith("attack/") and s == s:
            frames_att.setdefault(l.split("/")[1], []).append(s)
    return bf, {k: np.array(v) for k, v in att.items()}, frames_bf, {k: np.array(v) for k, v in frames_att.items()}


def rates(bf, att, t):
    pooled = np.concatenate(list(att.values()))
    return {"threshold": repr(t), "bpcer": repr(float(bm.farfrr(pooled, bf, t)[1])),
            "apcer": {sp: repr(float(bm.farfrr(a, bf, t)[0])) for sp, a in att.items()},
            "n_bonafide": len(bf), "n_attack": {sp: len(a) for sp, a in att.items()}}


two = videos([("bonafide", 12, 1.0), ("print", 9, -0.4), ("replay", 7, 0.1)])
two[5] = (two[5][0], two[5][1], two[5][2], float("nan"))
write("frames_two_species.txt", two)
bf, att, fbf, fatt = split(two)
out = {"presentations": rates(bf, att, T), "frames": rates(fbf, fatt, T)}

one = videos([("bonafide", 10, 0.8), ("print", 11, -0.2)])
write("frames_one_species.txt", one)
bf1, att1, _, _ = split(one)
t = float(bm.eer_threshold(att1["print"], bf1))
far, frr = bm.farfrr(att1["print"], bf1, t)
out["one_species_eer"] = {"threshold": repr(t), "apcer": repr(float(far)), "bpcer": repr(float(frr)),
                          "n_bonafide": len(bf1), "n_attack": len(att1["print"])}
with open("expected.json", "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
print(json.dumps(out, indent=1, sort_keys=True))
