"""partita.bench.ucos2: the guest's UBENCH lines become mean/std figures and a table."""

from __future__ import annotations

import pytest
from partita.bench import ucos2


def test_parse_mean_and_std() -> None:
    # samples 10, 12 and 14: mean 12, population std sqrt(8/3)
    text = ("noise\nUBENCH create threads=8 dispatch=1 n=3 sum=36 sumsq=440 min=10 max=14\n"
            "UBENCH-END\n")
    (r,) = ucos2.parse(text, "kernel")
    assert (r.op, r.variant, r.threads, r.dispatch, r.n) == ("create", "kernel", 8, True, 3)
    assert r.mean == 12 and r.std == pytest.approx((8 / 3) ** 0.5)
    assert (r.min, r.max) == (10, 14)


def test_parse_refuses_an_empty_sample() -> None:
    with pytest.raises(ucos2.UcosBenchError, match="no samples for delete"):
        ucos2.parse("UBENCH delete threads=1 dispatch=0 n=0 sum=0 sumsq=0 min=0 max=0", "user")


def test_markdown_rows_and_references() -> None:
    rs = ucos2.parse("UBENCH sem_post_wake threads=1 dispatch=1 n=2 sum=200 sumsq=20000 "
                     "min=100 max=100", "kernel")
    md = ucos2.markdown(rs, {("sem_give_wake", True): 77})
    row = next(ln for ln in md.splitlines() if ln.startswith("| OSSemPost"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "100 ± 0" and cells[2] == "—"  # 1 thread measured, 8 not
    assert cells[-2] == "260" and cells[-1] == "77"   # FreeRTOS V11, native
    assert len(md.splitlines()[0].split("|")) == len(row.split("|"))
