"""Pure rules of forgetting: which texts to probe for, how a forgotten text is searched (in the content indexes and in
free text), what a tombstone says, and what a reason naming forgotten content becomes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MIN_PROBE = 8  # shorter texts (a literal "X") would match unrelated content in a CONTAINS scan
SUMMARY_TEXT = "[content removed: an input was forgotten]"  # = graph.forget.REMOVED_TEXT
_LUCENE = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')

# Where a person's free text about an act can hold forgotten words, per label: reasons, causes, claimed actors, task
# labels, ledger details, tombstones' reasons, forget jobs' reports, verifiers' reasons (all in the `free_text` index,
# migrations 0017 and 0023).
# Forgetting removes a value that contains a forgotten text (services/forget/forget.py), verify_forgotten reports one.
FREE_TEXT: dict[str, list[str]] = {
    "AuditEvent": ["reason", "detail", "on_behalf_of"],  # redacted, the hash chain intact (schema/ledger.py)
    "Fact": ["end_reason", "lapse_reason", "stale_cause", "forgotten_reason", "forgotten_on_behalf_of"],
    "StateChange": ["reason", "causes", "actor"],
    "Summary": ["stale_cause", "end_reason", "content_removed_reason", "content_removed_on_behalf_of"],
    "Entity": ["forgotten_reason", "forgotten_on_behalf_of"],
    "Source": ["forgotten_reason", "forgotten_on_behalf_of"],
    "ForgetJob": ["reason", "on_behalf_of", "report"],
    "ForgetProbe": ["forgotten_reason", "forgotten_on_behalf_of"],
    "ReadReceipt": ["task", "query_removed_reason", "query_removed_on_behalf_of"],
    "Verification": ["reason"],  # a verifier's reason may quote a statement (migration 0023 indexes it)
}
FREE_DROPPED = ["report"]  # a JSON text: removed, not replaced
FREE_REMOVED = "[removed by forget: it named forgotten content]"
TASK_REMOVED = "[task label removed by forget: "  # + a random id + "]": each task keeps a label of its own
MAX_FREE_TEXT_PROBES = 64  # free-text index queries per forget or report (entity names first)
MAX_FREE_TERMS = 16  # words of a text the index query requires (the exact check follows)
# a word as Neo4j's standard analyzer cuts it (UAX#29: an apostrophe or a dot between letters or digits keeps one
# word); Han and Hiragana characters are words of their own
_FREE_WORD = re.compile(r"\w+(?:['’.]\w+)*")
_IDEOGRAPHS = "\u3040-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_IDEOGRAPH = re.compile(f"[{_IDEOGRAPHS}]|[^{_IDEOGRAPHS}]+")


@dataclass
class Probe:
    """Forgotten content captured before removal to search the indexes: in the forgetting handle's memory, and
    stored with the forget (a :ForgetProbe node no index covers) until purge, so any handle can probe with it. The
    node never holds the content in clear: only a sealed copy whose key purge destroys (services/forget/seal.py),
    beside the ids and the tombstone."""

    ids: list[str] = field(default_factory=list)
    kind: str = "fact"
    facts: list[str] = field(default_factory=list)  # facts forgotten with the target (a source's, an entity's)
    entities: list[str] = field(default_factory=list)  # entities forgotten with it: named only by forgotten facts
    texts: list[str] = field(default_factory=list)  # names of the entities forgotten with it first
    names: list[str] = field(default_factory=list)  # those names (plaintext in every mode: not sealed content)
    embeddings: list[list[float]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # crypto-erasure keys that sealed it (ids only; never key bytes)
    tombstone: dict[str, Any] | None = None  # {forgotten_at, by, on_behalf_of, reason}: content-free
    purged_at: Any = None

    def add(self, texts: list[str], embeddings: list[list[float]] = ()) -> None:
        """Add texts (long enough to be specific) and embeddings."""
        self.texts += [t for t in texts if t and len(t.strip()) >= MIN_PROBE and t not in self.texts]
        self.embeddings += [list(e) for e in embeddings]

    def add_names(self, names: list[str]) -> None:
        """Add the names of forgotten entities ahead of the other texts: the free-text probes, capped, take them
        first (a reason names a person far more often than it quotes a statement)."""
        fresh = [n for n in dict.fromkeys(names) if n and len(n.strip()) >= MIN_PROBE and n not in self.texts]
        self.texts[:0] = fresh
        self.names += [n for n in fresh if n not in self.names]

    def stored(self, target_id: str) -> dict[str, Any]:
        """The probe's content-free properties (the sealed copy of its texts and embeddings is added beside them)."""
        return {"target_id": target_id, "kind": self.kind, "ids": self.ids, "facts": self.facts,
                "entities": self.entities, "keys": self.keys, "names": len(self.names),
                **stored_tombstone(self.tombstone)}

    @classmethod
    def from_stored(cls, props: dict[str, Any], content: tuple[list[str], list[list[float]]] | None) -> "Probe":
        """A probe read back from its node, with its opened content (None: graph-only)."""
        texts, embeddings = content or ([], [])
        tombstone = (tombstone_of_props(props) if props.get("forgotten_at") else None)
        return cls(ids=list(props.get("ids") or []), kind=props.get("kind") or "fact",
                   facts=list(props.get("facts") or []), entities=list(props.get("entities") or []),
                   texts=texts, names=texts[:int(props.get("names") or 0)], embeddings=embeddings,
                   keys=list(props.get("keys") or []), tombstone=tombstone)

    def add_keys(self, key_ids: list[str]) -> None:
        """Remember which keys sealed the content (the nodes naming them may be purged later)."""
        self.keys += [k for k in key_ids if k not in self.keys]


def tombstone_of_props(props: dict[str, Any]) -> dict[str, Any]:
    """The tombstone stored as node properties (stored_tombstone's inverse)."""
    return tombstone(props["forgotten_at"], props.get("forgotten_by") or "", props.get("forgotten_on_behalf_of"),
                     props.get("forgotten_reason") or "")


def tombstone(at: Any, by: str, on_behalf_of: str | None, reason: str) -> dict[str, Any]:
    """A forget's tombstone: when, who acted (the acting key or process user), for whom it said, and why."""
    return {"forgotten_at": at, "by": by, "on_behalf_of": on_behalf_of, "reason": reason}


def stored_tombstone(tombstone: dict[str, Any] | None) -> dict[str, Any]:
    """A tombstone as node properties (forgotten_at, forgotten_by, forgotten_on_behalf_of, forgotten_reason)."""
    if not tombstone:
        return {}
    return {"forgotten_at": tombstone["forgotten_at"], "forgotten_by": tombstone["by"],
            "forgotten_on_behalf_of": tombstone.get("on_behalf_of"), "forgotten_reason": tombstone["reason"]}


def free_text_query(text: str, tenant: str) -> str | None:
    """A `free_text` index query finding the tenant's values that may contain `text`: each of its first words as a
    required prefix (a possessive or a longer word still matches), the exact, case-insensitive containment checked
    after (cypher/fragments/free_text_props.cypher); None when the text has no word."""
    words: list[str] = []
    for word in _FREE_WORD.findall(text.lower()):
        words += [w for w in _IDEOGRAPH.findall(word) if w not in words]
    if not words:
        return None
    terms = " ".join("+" + _LUCENE.sub(r"\\\1", w) + "*" for w in words[:MAX_FREE_TERMS])
    tenant_words = " ".join(re.findall(r"\w+", tenant))
    return (f'+tenant:"{tenant_words}" ' if tenant_words else "") + terms


def free_probes(texts: list[str], tenant: str) -> list[tuple[str, str]]:
    """(text, index query) of the free-text probes of forgotten texts, at most MAX_FREE_TEXT_PROBES."""
    found = [(t, free_text_query(t, tenant)) for t in texts[:MAX_FREE_TEXT_PROBES]]
    return [(t, q) for t, q in found if q]


def holding(found: list[tuple[str, str]], texts: list[str]) -> list[str]:
    """The ids of the (id, text) pairs whose text contains one of `texts`, compared in lower case (as the Cypher
    scans do): how sealed questions, opened in Python, are matched."""
    folded = [t.lower() for t in texts if t]
    return [i for i, text in found if text and any(t in text.lower() for t in folded)] if folded else []


def without_forgotten(text: str | None, texts: list[str]) -> str | None:
    """A reason or a claimed actor as a forget may record it: FREE_REMOVED when it contains a forgotten text (compared
    in lower case, as the free-text scrub does), else unchanged."""
    if text is None:
        return None
    folded = text.lower()
    return FREE_REMOVED if any(t.lower() in folded for t in texts if t) else text


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
