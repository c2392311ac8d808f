"""Independent values for DemographicDifferentialsTests and ErrorDiscardTests.

Written from the papers' definitions, not from padbench's code:
- FDR (de Freitas Pereira & Marcel 2021): 1 - (a*A + (1-a)*B), A/B = max pairwise |difference|
  of the groups' FMR (here APCER) and FNMR (here BPCER).
- GARBE (Howard et al. 2022, "Evaluating Proposed Fairness Models for Face Recognition
  Algorithms", arXiv:2203.05051): a*G(FMR) + (1-a)*G(FNMR), G the Gini coefficient with the
  sample-size correction n/(n-1): G(x) = n/(n-1) * sum_i sum_j |x_i - x_j| / (2 n^2 mean(x)).
  Checked (issue 30) against the paper's definition and a public Python implementation of FDR,
  IR and GARBE at a threshold: the same correction, the double sum over ordered pairs i != j
  (the i = j terms are 0), alpha on the FMR term (APCER here: an accepted attack is a false
  accept) and 1 - alpha on the FNMR term (BPCER), default alpha 0.5 (as de Freitas Pereira &
  Marcel's FDR). That implementation returns None when every rate is equal; padbench gives 0.
  Here G comes from the sorted-rank form G = 2*sum(i*x_(i)) / (n*sum(x)) - (n+1)/n (i = 1..n),
  times n/(n-1): a different route than the pairwise sum padbench uses.
Exact fractions (fractions.Fraction); run with `python3 differentials.py > expected.txt`.
"""
from fractions import Fraction as F

def max_pair(x):
    return max(abs(a - b) for a in x for b in x)

def gini_sorted(x):
    x = sorted(x)
    n = len(x)
    g = F(2) * sum((i + 1) * v for i, v in enumerate(x)) / (n * sum(x)) - F(n + 1, n)
    return F(n, n - 1) * g

# three groups, counts errors/N
bpcer = {"A": F(1, 10), "B": F(3, 10), "C": F(2, 10)}
apcer = {"A": F(2, 10), "B": F(1, 10), "C": F(4, 10)}
alpha = F(1, 2)
fdr = 1 - (alpha * max_pair(list(apcer.values())) + (1 - alpha) * max_pair(list(bpcer.values())))
ga, gb = gini_sorted(list(apcer.values())), gini_sorted(list(bpcer.values()))
print("fdr", fdr, float(fdr))
print("gini_apcer", ga, float(ga))
print("gini_bpcer", gb, float(gb))
print("garbe", alpha * ga + (1 - alpha) * gb, float(alpha * ga + (1 - alpha) * gb))
alpha = F(3, 10)
fdr = 1 - (alpha * max_pair(list(apcer.values())) + (1 - alpha) * max_pair(list(bpcer.values())))
print("fdr_alpha_0.3", fdr, float(fdr))
print("garbe_alpha_0.3", alpha * ga + (1 - alpha) * gb, float(alpha * ga + (1 - alpha) * gb))
