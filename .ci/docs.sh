#!/usr/bin/env bash
# Builds the documentation site as the docs say a user does: a fresh virtual environment with
# the `docs` extra and nothing else (`pip install ".[docs]"`), then `mkdocs build --strict`,
# every notebook executed. A package that the site needs but the extra lacks fails here.
# Usage: .ci/docs.sh [WHEEL]
#   WHEEL: a built stonefield wheel to install with the extra (no second Rust build); without
#   it the package is built from this tree with the quick profile.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset VIRTUAL_ENV PYTHONPATH

python3 -m venv "$work/venv"
py="$work/venv/bin/python"
"$py" -m pip install --quiet --upgrade pip
if [ $# -ge 1 ]; then
  wheel=$(realpath "$1")
  "$py" -m pip install --quiet "stonefield[docs] @ file://$wheel"
else
  MATURIN_PEP517_ARGS="--profile quick" "$py" -m pip install --quiet "$repo[docs]"
fi
echo "installed: stonefield $("$py" -c 'import stonefield; print(stonefield.__version__)')" \
  "with the docs extra only ($("$py" -m pip list --format=freeze | wc -l) packages)"

cd "$repo"
# mkdocs-jupyter caches executed notebooks by content; this build executes them afresh.
rm -rf .cache/mkdocs-jupyter
# The notebooks run in this environment's own kernel, not one registered elsewhere.
export PATH="$work/venv/bin:$PATH"
"$py" -m mkdocs build --strict --site-dir "$work/site"
echo "$(find "$work/site" -name index.html | wc -l) pages"
