// PadMetrics module: see README.md
