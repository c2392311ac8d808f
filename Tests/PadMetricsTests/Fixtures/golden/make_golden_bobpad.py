"""BPCER@APCER on multi-species score files by bob.pad.base's own rule, for GoldenTests.

Run: pip install bob.pad.base==6.0.1 bob.measure==6.1.1; python3 make_golden_bobpad.py
Reads <set>.csv (generic padbench CSV) for every set below and writes <set>.bobpad.json.

bob.pad.base.error_utils.apcer_threshold(x, bona_fide, *attacks_per_species) is the maximum
over species of bob.measure.far_threshold(species attacks, bona fide, x); BPCER and APCER per
species there come from bob.pad.base.error_utils.apcer_bpcer. NaN scores (failures to process) are
dropped first, as bob.measure.utils.get_fta does.

bob.pad.base 6.0.1's package __init__ imports bob.bio.base, whose import chain fails with current
scikit-learn; error_utils itself only needs a CSV iterator from it, so a stand-in module is put in
sys.modules and error_utils.py is loaded from its file.
"""
import csv, importlib.util, json, math, os, sys, types

for name in ["bob.bio", "bob.bio.base", "bob.bio.base.score", "bob.bio.base.score.load"]:
    sys.modules[name] = types.ModuleType(name)
sys.modules["bob.bio.base.score.load"]._iterate_csv_score_file = lambda f: iter(())
import bob.measure  # noqa: E402
spec = importlib.util.find_spec("bob.pad")
path = os.path.join(list(spec.submodule_search_locations)[0], "base", "error_utils.py")
loader = importlib.util.spec_from_file_location("error_utils", path)
error_utils = importlib.util.module_from_spec(loader)
loader.loader.exec_module(error_utils)

SETS = ["five_species", "nan_two_species", "species_gap"]


def write_species_gap():
    """Two species whose per-species far_threshold differ from the lowest common threshold."""
    # print has a gap below its highest score, so bob.pad.base's threshold (0.9 at APCER 10%) lies
    # above the lowest attack score where every species is within the target (replay's 0.62).
    rows = [("bonafide", "", v) for v in [0.05, 0.15, 0.25, 0.32, 0.38, 0.45, 0.55, 0.64, 0.7, 0.8, 0.86, 0.95]]
    rows += [("attack", "print", v) for v in [0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.52, 0.55, 0.9]]
    rows += [("attack", "replay", v) for v in [0.12, 0.22, 0.35, 0.42, 0.48, 0.5, 0.53, 0.56, 0.6, 0.62]]
    with open("species_gap.csv", "w") as f:
        f.write("id,label,species,score\n")
        for i, (label, species, score) in enumerate(rows):
            f.write(f"g{i:03d},{label},{species},{score!r}\n")


write_species_gap()
for name in SETS:
    bona_fide, attacks = [], {}
    with open(f"{name}.csv") as f:
        for row in csv.DictReader(f):
            if row["score"] == "":
                continue
            score = float(row["score"])
            if math.isnan(score):
                continue
            if row["label"] == "bonafide":
                bona_fide.append(score)
            else:
                attacks.setdefault(row["species"], []).append(score)
    species = sorted(attacks)
    negatives = [attacks[s] for s in species]
    out = []
    for x in [0.01, 0.05, 0.1, 0.2]:
        t = float(error_utils.apcer_threshold(x, bona_fide, *negatives))
        apcers, apcer_max, bpcer = error_utils.apcer_bpcer(t, bona_fide, *negatives)
        out.append({"target": x, "threshold": repr(t), "bpcer": repr(float(bpcer)), "apcer_max": repr(float(apcer_max)),
                    "apcer": {s: repr(float(a)) for s, a in zip(species, apcers)}})
    with open(f"{name}.bobpad.json", "w") as f:
        json.dump({"bpcer_at_apcer": out}, f, indent=1, sort_keys=True)
    print(name, [(o["target"], o["threshold"], o["bpcer"]) for o in out])
