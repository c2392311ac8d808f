// PadArchive module: see README.md
