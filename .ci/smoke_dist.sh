#!/usr/bin/env bash
# Build the sdist and the wheel, install each into a clean venv, and run the quickstart
# from outside the source tree, so the installed package (not the checkout) is tested.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python -m build --outdir "$work/dist" "$root" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
for artifact in "$work"/dist/*.whl "$work"/dist/*.tar.gz; do
  venv="$work/venv-$(basename "$artifact")"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "${artifact}[fake]" 2>"$work/pip.log" || { cat "$work/pip.log"; exit 1; }
  (cd "$work" && env -u LEADENRICH_API_KEY -u LEADENRICH_BASE_URL \
    "$venv/bin/python" "$root/examples/quickstart.py" | grep -q "credits used this month: 1 of 1000")
  (cd "$work" && "$venv/bin/python" -c "
import leadenrich, pathlib
assert 'site-packages' in leadenrich.__file__, leadenrich.__file__
assert (pathlib.Path(leadenrich.__file__).parent / 'py.typed').exists()
print('smoke ok:', pathlib.Path('$artifact').name, leadenrich.__version__)
")
  "$venv/bin/leadenrich" --help >/dev/null
  (cd "$work" && "$venv/bin/python" -m leadenrich --version >/dev/null)
done
