// PadReport module: see README.md
