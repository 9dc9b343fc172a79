"""Pure rules of forgetting: which texts to probe for, how a forgotten text is searched, what a tombstone says."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MIN_PROBE = 8  # shorter texts (a literal "X") would match unrelated content in a CONTAINS scan
SUMMARY_TEXT = "[content removed: an input was forgotten]"  # = graph.forget.REMOVED_TEXT
_LUCENE = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


@dataclass
class Probe:
    """Forgotten content captured before removal, kept in memory only (never stored) to search the indexes."""

    ids: list[str] = field(default_factory=list)
    kind: str = "fact"
    facts: list[str] = field(default_factory=list)  # facts forgotten with the target (a source's, an entity's)
    texts: list[str] = field(default_factory=list)
    embeddings: list[list[float]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # crypto-erasure keys that sealed it (ids only; never key bytes)

    def add(self, texts: list[str], embeddings: list[list[float]] = ()) -> None:
        """Add texts (long enough to be specific) and embeddings."""
        self.texts += [t for t in texts if t and len(t.strip()) >= MIN_PROBE and t not in self.texts]
        self.embeddings += [list(e) for e in embeddings]

    def add_keys(self, key_ids: list[str]) -> None:
        """Remember which keys sealed the content (the nodes naming them may be purged later)."""
        self.keys += [k for k in key_ids if k not in self.keys]


def lucene_phrase(text: str) -> str:
    """A full-text query matching `text` as one phrase (Lucene syntax escaped)."""
    return '"' + _LUCENE.sub(r"\\\1", " ".join(text.split())[:500]) + '"'


def only_evidence(dependents: list[tuple[str, bool]]) -> list[str]:
    """The facts whose only live evidence is the forgotten source (they are forgotten with it)."""
    return sorted(fid for fid, backed in dependents if not backed)
