#!/usr/bin/env bash
# The distribution as a user receives it. Build the sdist and the wheel (`python -m build`
# builds the wheel from the sdist, so the wheel also proves the sdist builds), check both
# with twine and their file lists, collect the test suite from the unpacked sdist, then
# install the wheel into fresh venvs and run, from outside the source tree (so the
# installed package, not the checkout, is tested: .ci/smoke/installed.py checks), the
# quickstart, the commands, and each extra's check in .ci/smoke/: an MCP client listing
# the tools of `leadenrich mcp` (mcp), spans in an in-memory exporter (otel), a shared
# budget with Redis away (redis), DataFrames in and out with a progress bar (notebook).
#
# Three venvs, each with the fake extra (every check runs against the bundled fake):
# - newest: every extra at the newest versions they allow, in one venv, as a user with
#   them all has it;
# - lowest: every extra but mcp at the floors of pyproject.toml, which no other venv
#   installs;
# - lowest-mcp: mcp at its floor. mcp 2.3 needs pydantic 2.12 (and more: lowest_pins.py
#   prints what it raises), so with mcp beside the others the core's floor of pydantic
#   2.6 would never be installed anywhere; mcp gets a venv of its own instead.
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
smoke="$root/.ci/smoke"

install_venv() { # NAME EXTRAS: a fresh venv with the wheel and EXTRAS, on NAME.txt's pins
  local name="$1" extras="$2" venv="$work/venv-$1"
  python3 -m venv "$venv"
  # opentelemetry-sdk is the application's, not the extra's: the spans check needs it.
  local sdk=() && [[ ",$extras," == *,otel,* ]] && sdk=(opentelemetry-sdk)
  "$venv/bin/pip" install --quiet -c "$name.txt" "${wheel}[$extras]" "${sdk[@]}" >"$name.pip.log" 2>&1
}

# Each check prints one line when it passes and what is wrong when it fails.
check_venv() { # NAME EXTRAS: the checks of the venv install_venv made
  local name="$1" extras="$2" venv="$work/venv-$1"
  local py="$venv/bin/python"
  echo "== $name: [$extras] $(tr '\n' ' ' <"$name.txt")"
  "$py" "$smoke/installed.py" "$root"
  "$py" quickstart.py >quickstart.log 2>&1 || { cat quickstart.log; exit 1; }
  grep -q "credits used this month: 1 of 1000" quickstart.log || { cat quickstart.log; exit 1; }
  echo "quickstart: one lead enriched on the bundled fake server, no key"
  "$venv/bin/leadenrich" --help >help.log && grep -Eq '^ +mcp +serve the API' help.log || { cat help.log; exit 1; }
  "$py" -m leadenrich --help | cmp -s - help.log || { echo "python -m leadenrich --help differs"; exit 1; }
  version="$("$py" -c 'import leadenrich; print(leadenrich.__version__)')"
  [[ "$("$venv/bin/leadenrich" --version)" == "leadenrich $version" ]] || { echo "leadenrich --version is not $version"; exit 1; }
  "$venv/bin/leadenrich" mcp --help >help.log && grep -q -- '--max-credits N' help.log || { cat help.log; exit 1; }
  echo "commands: leadenrich --help, --version and mcp --help"
  if [[ ",$extras," == *,mcp,* ]]; then
    "$py" "$smoke/mcp_list.py" "$root/docs/mcp.md"
  else
    # As docs/mcp.md says: without the extra, the command says how to install it.
    status=0 && "$venv/bin/leadenrich" mcp </dev/null 2>mcp.log || status=$?
    [[ $status == 1 ]] && grep -q "pip install 'leadenrich\[mcp\]'" mcp.log ||
      { echo "leadenrich mcp without the extra exited $status:"; cat mcp.log; exit 1; }
    echo "mcp: absent, and leadenrich mcp says how to install it"
  fi
  if [[ ",$extras," == *,otel,* ]]; then "$py" "$smoke/spans.py"; fi
  if [[ ",$extras," == *,redis,* ]]; then "$py" "$smoke/redis_budget.py"; fi
  if [[ ",$extras," == *,notebook,* ]]; then "$py" "$smoke/notebook.py" 2>notebook.log || { cat notebook.log; exit 1; }; fi
}

# Nothing of the machine's environment points the checks elsewhere.
unset LEADENRICH_API_KEY LEADENRICH_BASE_URL LEADENRICH_TELEMETRY LEADENRICH_LOG
: >newest.txt
python "$root/.ci/lowest_pins.py" "$wheel" fake notebook redis otel >lowest.txt
sed -n 's/^opentelemetry-api==/opentelemetry-sdk==/p' lowest.txt >>lowest.txt
# pandas 2.0's wheels are built on numpy 1 and do not say so: beside numpy 2 (the newest
# pip picks) `import pandas` fails. Anyone on pandas 2.0 has numpy 1.
echo "numpy<2" >>lowest.txt
python "$root/.ci/lowest_pins.py" "$wheel" fake mcp >lowest-mcp.txt
# The installs at once (mostly waiting for files), then the checks one venv at a time.
venvs=(newest:fake,notebook,redis,mcp,otel lowest:fake,notebook,redis,otel lowest-mcp:fake,mcp)
installs=()
for venv in "${venvs[@]}"; do install_venv "${venv%%:*}" "${venv#*:}" & installs+=($!); done
for i in "${!venvs[@]}"; do
  name="${venvs[$i]%%:*}"
  wait "${installs[$i]}" || { echo "pip cannot install the wheel on the $name versions:"; cat "$name.pip.log"; exit 1; }
done
echo "the wheel installed in ${#venvs[@]} venvs, $SECONDS s from the start"
for venv in "${venvs[@]}"; do check_venv "${venv%%:*}" "${venv#*:}"; done
echo "smoke ok: $(basename "$wheel") in $SECONDS s"
