"""Issue 29: the "Who is best?" view's paragraph and reproducing script (cl.ranking_script,
BayesianRankingResult.paragraph). The script, run alone in a fresh process, prints the same numbers as the call
it reproduces, to the last digit; a file is read again, anything else travels inside the script as data."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data" / "demsar2006_table6_auc.csv"


def _run(code: str, tmp_path: Path) -> str:
    script = tmp_path / "ranking_script.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _p_best(output: str, names) -> dict[str, float]:
    """The p_best column of the printed to_frame() (17 significant digits), by classifier."""
    out = {}
    for line in output.splitlines():
        for name in names:
            if line.startswith(str(name) + " ") or line.startswith(str(name) + "  "):
                fields = line[len(str(name)):].split()
                if len(fields) == 5 and name not in out:  # p_best, p_largest_weight, expected_rank, rhat, ess
                    out[name] = float(fields[0])
    return out


def test_the_script_reads_the_file_again_and_prints_the_same_numbers(tmp_path):
    table = cl.load_scores(SAMPLE, higher_is_better=True)
    res = cl.bayesian_ranking(table, samples=800, seed=11, prior=2.0)
    code = cl.ranking_script(table, samples=800, seed=11, prior=2.0)
    assert "cl.load_scores(DATA_FILE" in code or "cl.read_results(DATA_FILE" in code  # read again, not embedded
    assert "SCORES = [" not in code
    printed = _p_best(_run(code, tmp_path), table.classifiers)
    assert printed == {name: float(f"{res.p_best[name]:.17g}") for name in table.classifiers}
    assert len(printed) == table.n_classifiers


def test_a_table_in_memory_travels_inside_the_script_with_hostile_names_only_as_data(tmp_path):
    marker = tmp_path / "PWNED"
    evil = ['a"); open(' + repr(str(marker)) + ', "w"); ("', "b\n__import__('os')", "c'''\"\"\"", "d\\x00{}"]
    rng = np.random.default_rng(4)
    frame = pd.DataFrame(rng.uniform(0.5, 0.9, (12, 4)), columns=evil, index=[f"set {i}" for i in range(12)])
    frame.iloc[2, 1] = np.nan  # a missing cell: a partial ranking
    table = cl.ScoreTable(frame, higher_is_better=True, missing="pairwise")
    res = cl.bayesian_ranking(table, model="bradley-terry-davidson", samples=600, seed=5, strength_sd=1.5)
    code = cl.ranking_script(table, model="bradley-terry-davidson", samples=600, seed=5, strength_sd=1.5)
    assert "SCORES = [" in code and "strength_sd=1.5" in code and "seed=5" in code
    output = _run(code, tmp_path)
    assert not marker.exists()
    # the names print as the data they are; compare the numbers through the library's own frame order
    numbers = [float(x) for x in re.findall(r"(?m)^.*?\s([0-9.e-]+)\s+[0-9.e-]+\s+[0-9.e-]+\s+[0-9.e-]+\s+[0-9.e-]+$",
                                            output.split("P(row ranked before column)")[0])]
    assert len(numbers) == 4
    assert numbers == [float(f"{v:.17g}") for v in res.p_best.to_numpy()]


def test_the_script_refuses_what_the_call_would_refuse():
    table = cl.load_scores(SAMPLE, higher_is_better=True)
    with pytest.raises(cl.InputError, match="seed"):
        cl.ranking_script(table, seed=-1)


def test_the_paragraph_states_the_model_settings_and_numbers():
    table = cl.load_scores(SAMPLE, higher_is_better=True)
    res = cl.bayesian_ranking(table, samples=800, seed=3)
    text = res.paragraph(top=2)
    best = res.p_best.sort_values(ascending=False)
    assert "Plackett-Luce" in text and "Calvo" in text and "Dirichlet(1)" in text and "seed 3" in text
    assert f"{best.index[0]} {best.iloc[0]:.3f} (expected rank {res.expected_rank[best.index[0]]:.2f})" in text
    assert f"the other 2 below {best.iloc[2]:.3f}" in text
    assert f"{res.n_samples:,} draws in all" in text and f"largest R-hat {res.max_rhat:.3f}" in text
    btd = cl.bayesian_ranking(table, model="bradley-terry-davidson", samples=800, seed=3)
    text = btd.paragraph()
    assert "Davidson" in text and "largest strength" in text and "Plackett" not in text
    assert all(name in text for name in table.classifiers)  # k = 4 <= top: every classifier listed
