// PadBench module: see README.md
