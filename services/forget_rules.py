"""Pure rules of forgetting: which texts to probe for, how a forgotten text is searched, what a tombstone says."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MIN_PROBE = 8  # shorter texts (a literal "X") would match unrelated content in a CONTAINS scan
SUMMARY_TEXT = "[content removed: an input was forgotten]"  # = graph.forget.REMOVED_TEXT
_LUCENE = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


@dataclass
class Probe:
    """Forgotten content captured before removal to search the indexes: in the forgetting handle's memory, and
    stored with the forget (a :ForgetProbe node no index covers) until purge, so any handle can probe with it."""

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

    def stored(self, target_id: str, *, with_texts: bool = True) -> dict[str, Any]:
        """The probe as node properties (embeddings flattened: a property cannot hold a list of lists). Without
        texts in crypto-erasure mode: a plaintext copy kept until purge would outlive the destroyed key in the
        transaction logs, and the full-text index holds only ciphertext there, so a text probe finds nothing."""
        dims = len(self.embeddings[0]) if self.embeddings else 0
        return {"target_id": target_id, "kind": self.kind, "ids": self.ids, "facts": self.facts,
                "texts": self.texts if with_texts else [],
                "vectors": [x for e in self.embeddings for x in e], "dims": dims, "keys": self.keys}

    @classmethod
    def from_stored(cls, props: dict[str, Any]) -> "Probe":
        """A probe read back from its node."""
        flat, dims = list(props.get("vectors") or []), int(props.get("dims") or 0)
        return cls(ids=list(props.get("ids") or []), kind=props.get("kind") or "fact",
                   facts=list(props.get("facts") or []), texts=list(props.get("texts") or []),
                   embeddings=[flat[i:i + dims] for i in range(0, len(flat), dims)] if dims else [],
                   keys=list(props.get("keys") or []))

    def add_keys(self, key_ids: list[str]) -> None:
        """Remember which keys sealed the content (the nodes naming them may be purged later)."""
        self.keys += [k for k in key_ids if k not in self.keys]


def lucene_phrase(text: str) -> str:
    """A full-text query matching `text` as one phrase (Lucene syntax escaped)."""
    return '"' + _LUCENE.sub(r"\\\1", " ".join(text.split())[:500]) + '"'


def only_evidence(dependents: list[tuple[str, bool]]) -> list[str]:
    """The facts whose only live evidence is the forgotten source (they are forgotten with it)."""
    return sorted(fid for fid, backed in dependents if not backed)


def ledger_subjects(fact_ids: list[str], source_ids: list[str]) -> list[str]:
    """The ledger subjects of events about forgotten content: the ledger is searched by these ids (events name the
    fact or source they concern), never by scanning every event's text."""
    return list(dict.fromkeys([*fact_ids, *source_ids]))
