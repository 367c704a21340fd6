"""The mutation gate's list stays true to the code: each mutant's old text is still there,
once, so that a change to the package cannot quietly turn a mutant into no change at all.
(The gate itself, `python -m tests.simulation.mutate`, is run by hand: see CONTRIBUTING.md.)"""

from __future__ import annotations

import pytest

from .mutants import MUTANTS, PACKAGE, Mutant


@pytest.mark.parametrize("mutant", MUTANTS, ids=[mutant.name for mutant in MUTANTS])
def test_each_mutant_changes_its_file_in_one_place(mutant: Mutant) -> None:
    source = (PACKAGE / mutant.file).read_text()
    assert source.count(mutant.old) == 1, (
        f"{mutant.name}: its old text occurs {source.count(mutant.old)} times in leadenrich/{mutant.file}; "
        "update the mutant in tests/simulation/mutants.py to the code as it is now"
    )
    changed = mutant.applied(source)
    assert changed != source
    compile(changed, mutant.file, "exec")
    assert mutant.breaks, f"{mutant.name} says no rule it breaks"
