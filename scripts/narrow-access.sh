#!/bin/sh
# Narrows padbench's access levels to what its one client, the package itself, needs: every
# `public` declaration modifier in Sources/ becomes `package`, and Package.swift loses the
# `PadBench` library product (README.md and docs/ promise no Swift API; the product is the
# `padbench` executable). Idempotent: run it again after merging branches that add `public`
# declarations. Only the modifier at the start of a declaration (after its attributes) changes;
# comments and strings are left alone.
set -eu
cd "$(dirname "$0")/.."
find Sources -name '*.swift' -print0 | xargs -0 perl -pi -e 's/^(\s*(?:@\w+(?:\([^)]*\))?\s+)*)public\b/${1}package/'
perl -ni -e 'print unless /^\s*\.library\(name: "PadBench", targets: \["PadBench"\]\),\s*$/' Package.swift
# A longer line or a one-element product list is reformatted, so `make format-check` stays clean.
changed=$(git diff --name-only -- Sources Package.swift | grep -E '\.swift$' || true)
if [ -n "$changed" ]; then
    # shellcheck disable=SC2086 # file names in Sources have no spaces
    ${SWIFT:-swift} format format --in-place $changed
fi
left=$(grep -rlw 'public' Sources --include='*.swift' || true)
if [ -n "$left" ]; then
    echo "narrow-access: 'public' left in (not at a declaration's start; fix by hand):" >&2
    echo "$left" >&2
    exit 1
fi
