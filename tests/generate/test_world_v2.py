"""Generated worlds by edition: edition 1 stays byte for byte what release v1 was built on; edition 2 draws a
thousand organizations from curated per-industry vocabularies, offices over the world and clocks over the year."""

from __future__ import annotations

import pytest

from orchestrator.generate import world as worlds

EDITION_1 = {
    (0, "small"): "a68a687fba9792207d6a9dd24533a89e4166a4d4ff8ab61dc1fe57f9bb2eac1e",
    (1, "small"): "7455d3cc07d49c854d05fa92bf995da0c12eb06f48017ff38392bfe0511f1382",
    (7, "small"): "fb6be67df27bcb656184a58ea868249d877d0f76c5f2b4b2c2ab4f0c44a1b401",
    (3, "medium"): "501c9942a47ed5d29081d9c0a91abcf2ea46d0cd08e9263fd66c7ee35fe728d6",
}
"""World digests as release v1 built them (before edition 2 existed)."""


@pytest.mark.parametrize(("seed", "size"), sorted(EDITION_1))
def test_edition_1_worlds_are_what_release_v1_was_built_on(seed: int, size: str) -> None:
    assert worlds.build_world(seed, size).digest() == EDITION_1[(seed, size)]
