#!/usr/bin/env bash
# Installs a built wheel into a fresh virtual environment with no Rust toolchain on the PATH,
# then runs the smoke test and the core test subset against it from a folder outside the source
# tree, so that neither the build tree nor the sources can be imported by accident.
# Usage: .ci/wheel_test.sh WHEEL
set -euo pipefail
wheel=$(realpath "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# PATH without cargo, rustc or rustup (~/.cargo/bin, rustup toolchains).
clean_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e '\.cargo' -e 'rustup' -e '/\.venv/' \
  | paste -sd: -)
export PATH="$clean_path"
unset VIRTUAL_ENV PYTHONPATH CARGO_HOME RUSTUP_HOME
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
  echo "cargo or rustc is still on the PATH: $(command -v cargo rustc)"; exit 1
fi
echo "no Rust toolchain on the PATH (cargo: not found)"

python3 -m venv "$work/venv"
py="$work/venv/bin/python"
start=$(date +%s%N)
# --no-index for the wheel itself, binary-only for its dependencies: nothing is compiled.
"$py" -m pip install --quiet --only-binary :all: "$wheel"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "wheel installed in ${ms} ms (numpy included, from pip's cache when it has it)"
"$py" -m pip install --quiet --only-binary :all: "pytest>=7" "hypothesis>=6"

# The tests and the README they read, copied away from the sources.
mkdir -p "$work/tree"
cp -r "$repo/tests" "$work/tree/tests"
cp "$repo/README.md" "$work/tree/"
mkdir -p "$work/tree/docs"
cp "$repo"/docs/*.md "$work/tree/docs/"  # pages some tests check their examples against
cat > "$work/tree/pytest.ini" <<'INI'
[pytest]
pythonpath = tests
xfail_strict = true
filterwarnings = error
markers =
    slow: strength tests
    timing: time-sensitive tests (Ctrl-C, time budgets, shutdown)
INI
cd "$work/tree"
"$py" "$repo/.ci/wheel_smoke.py"
"$py" -m pytest -q -p no:cacheprovider \
  tests/core/test_api.py tests/core/test_simulate.py tests/core/test_conformance.py \
  tests/core/test_golden.py tests/core/test_observation.py tests/core/test_records.py \
  tests/search/test_search_core.py tests/search/test_agents.py tests/cli/test_cli_errors.py
