#!/usr/bin/env bash
# The distribution as a user receives it. Build the sdist and the wheel (`python -m build`
# builds the wheel from the sdist, so the wheel also proves the sdist builds), check both
# with twine and their file lists, collect the test suite from the unpacked sdist, then
# install the wheel with [fake] into fresh venvs and run the quickstart and the commands
# from outside the source tree, so the installed package (not the checkout) is tested:
# once on the newest versions its requirements allow, once on the lowest (the floors of
# pyproject.toml, which no other venv installs).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python -m build --outdir "$work/dist" "$root" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
wheel="$(echo "$work"/dist/*.whl)"
sdist="$(echo "$work"/dist/*.tar.gz)"
python -m twine check --strict "$wheel" "$sdist"
python "$root/.ci/dist_contents.py" "$root" "$wheel" "$sdist"

# A packager runs the tests from the unpacked sdist: they must all be there and import.
mkdir "$work/sdist" && tar -xzf "$sdist" -C "$work/sdist"
(cd "$work"/sdist/* && python -m pytest --collect-only -q -n0 -p no:randomly >"$work/collect.log" 2>&1) ||
  { tail -30 "$work/collect.log"; exit 1; }
tail -1 "$work/collect.log"

cp "$root/examples/quickstart.py" "$work/"
cd "$work"
: >newest.txt
python "$root/.ci/lowest_pins.py" "$wheel" fake >lowest.txt
for versions in newest lowest; do
  venv="$work/venv-$versions"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet -c "$versions.txt" "${wheel}[fake]" 2>pip.log || { cat pip.log; exit 1; }
  env -u LEADENRICH_API_KEY -u LEADENRICH_BASE_URL "$venv/bin/python" quickstart.py >quickstart.log 2>&1 ||
    { echo "the quickstart fails on the $versions versions:"; cat quickstart.log; exit 1; }
  grep -q "credits used this month: 1 of 1000" quickstart.log || { cat quickstart.log; exit 1; }
done
venv="$work/venv-newest"
"$venv/bin/leadenrich" --help >/dev/null
"$venv/bin/python" -m leadenrich --help >/dev/null
"$venv/bin/python" -c "
import pathlib, leadenrich, leadenrich.testing
assert 'site-packages' in leadenrich.__file__, leadenrich.__file__
assert (pathlib.Path(leadenrich.__file__).parent / 'py.typed').exists()
print('smoke ok:', pathlib.Path('$wheel').name, leadenrich.__version__)
"
echo "the quickstart runs on the lowest versions too: $(tr '\n' ' ' <lowest.txt)"
