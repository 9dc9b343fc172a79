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
    stored with the forget (a :ForgetProbe node no index covers) until purge, so any handle can probe with it. The
    node never holds the content in clear: only a sealed copy whose key purge destroys (services/forget_seal.py),
    beside the ids and the tombstone."""

    ids: list[str] = field(default_factory=list)
    kind: str = "fact"
    facts: list[str] = field(default_factory=list)  # facts forgotten with the target (a source's, an entity's)
    entities: list[str] = field(default_factory=list)  # entities forgotten with it: named only by forgotten facts
    texts: list[str] = field(default_factory=list)
    embeddings: list[list[float]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # crypto-erasure keys that sealed it (ids only; never key bytes)
    tombstone: dict[str, Any] | None = None  # {forgotten_at, by, on_behalf_of, reason}: content-free
    purged_at: Any = None

    def add(self, texts: list[str], embeddings: list[list[float]] = ()) -> None:
        """Add texts (long enough to be specific) and embeddings."""
        self.texts += [t for t in texts if t and len(t.strip()) >= MIN_PROBE and t not in self.texts]
        self.embeddings += [list(e) for e in embeddings]

    def stored(self, target_id: str) -> dict[str, Any]:
        """The probe's content-free properties (the sealed copy of its texts and embeddings is added beside them)."""
        return {"target_id": target_id, "kind": self.kind, "ids": self.ids, "facts": self.facts,
                "entities": self.entities, "keys": self.keys, **stored_tombstone(self.tombstone)}

    @classmethod
    def from_stored(cls, props: dict[str, Any], content: tuple[list[str], list[list[float]]] | None) -> "Probe":
        """A probe read back from its node, with its opened content (None: graph-only)."""
        texts, embeddings = content or ([], [])
        tombstone = ({"forgotten_at": props["forgotten_at"], "by": props.get("forgotten_by") or "",
                      "on_behalf_of": props.get("forgotten_on_behalf_of"), "reason": props.get("forgotten_reason") or ""}
                     if props.get("forgotten_at") else None)
        return cls(ids=list(props.get("ids") or []), kind=props.get("kind") or "fact",
                   facts=list(props.get("facts") or []), entities=list(props.get("entities") or []),
                   texts=texts, embeddings=embeddings, keys=list(props.get("keys") or []), tombstone=tombstone)

    def add_keys(self, key_ids: list[str]) -> None:
        """Remember which keys sealed the content (the nodes naming them may be purged later)."""
        self.keys += [k for k in key_ids if k not in self.keys]


def tombstone(at: Any, by: str, on_behalf_of: str | None, reason: str) -> dict[str, Any]:
    """A forget's tombstone: when, who acted (the acting key or process user), for whom it said, and why."""
    return {"forgotten_at": at, "by": by, "on_behalf_of": on_behalf_of, "reason": reason}


def stored_tombstone(tombstone: dict[str, Any] | None) -> dict[str, Any]:
    """A tombstone as node properties (forgotten_at, forgotten_by, forgotten_on_behalf_of, forgotten_reason)."""
    if not tombstone:
        return {}
    return {"forgotten_at": tombstone["forgotten_at"], "forgotten_by": tombstone["by"],
            "forgotten_on_behalf_of": tombstone.get("on_behalf_of"), "forgotten_reason": tombstone["reason"]}


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
