// PadProfiles module: see README.md
