# Lines for .ci/run, after the clippy runs (they reuse the build's dependencies).

# Imports flow one way: no two files and no two top-level modules of tool-core import each other.
python3 scripts/import_cycles.py
# tool-core's public API (every feature on) is the checked-in tool-core/public-api.txt, so each
# addition or removal is deliberate and shows up in review. A deliberate change regenerates the
# listing with `python3 scripts/public_api.py --write`.
python3 scripts/public_api.py --check
