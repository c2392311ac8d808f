"""Independent values for ErrorDiscardTests, from the definition of ISO/IEC 29794-1's EDC
(as padbench adapts it to PAD), not from padbench's code: for each distinct quality threshold t
(plus t = -inf), keep the presentations with quality >= t, discarded = 1 - kept/N, error = max
over groups of (errors kept / kept). Area up to 0.2 of the step curve by summing rectangles; the
ideal curve max(0, (e0 - f)/(1 - f)) integrated numerically (midpoint rule, 10^6 steps).
Run: python3 edc.py > edc_expected.txt
"""
from fractions import Fraction as F
import math

def edc(q, g, err, max_discard=F(1, 2)):
    n = len(q)
    pts = []
    for t in [None] + sorted(set(q)):
        kept = [i for i in range(n) if t is None or q[i] >= t]
        f = 1 - F(len(kept), n)
        if f > max_discard:
            break
        if pts and pts[-1][0] == f:
            continue  # the lowest threshold keeps everything, as t = -inf does
        rates = []
        for grp in sorted(set(g)):
            k = [i for i in kept if g[i] == grp]
            if k:
                rates.append(F(sum(1 for i in k if err[i]), len(k)))
        pts.append((f, max(rates)))
    return pts

def area(pts, limit=F(1, 5)):
    a = F(0)
    for k, (f, e) in enumerate(pts):
        if f >= limit:
            break
        end = min(limit, pts[k + 1][0] if k + 1 < len(pts) else limit)
        a += e * (end - f)
    return a

def ideal_area(e0, limit=0.2, steps=10**6):
    h = limit / steps
    return sum(max(0.0, (e0 - (k + 0.5) * h) / (1 - (k + 0.5) * h)) for k in range(steps)) * h

bq = [F(x, 10) for x in [1, 2, 2, 3, 4, 5, 6, 7, 8, 9]]
berr = [1, 0, 1, 0, 0, 1, 0, 0, 0, 0]
pts = edc(bq, [0] * 10, berr)
print("bona fide", [(str(f), str(e)) for f, e in pts])
print("bona fide area", area(pts), float(area(pts)), "ideal", ideal_area(float(pts[0][1])))
aq = [F(x, 10) for x in [1, 2, 3, 4, 5, 6, 7, 8]]
ag = [0, 1, 0, 1, 0, 1, 0, 1]
aerr = [1, 1, 0, 1, 0, 0, 1, 0]
pts = edc(aq, ag, aerr)
print("attacks", [(str(f), str(e)) for f, e in pts])
print("attacks area", area(pts), float(area(pts)), "ideal", ideal_area(float(pts[0][1])))
