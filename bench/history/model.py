"""A small model of what `GET /v1/facts?subject=&valid_at=&known_at=` serves, built from a history's writes.

The model is a bitemporal table of its own: each write, applied at its known time k (in known-time order per
tenant), closes some model versions (their `known_to` becomes k) and opens new ones (`known_from` k). A read at
(valid_at, known_at) is answered by the versions believed at known_at, in a served state, whose valid interval holds
valid_at, compared as `(fact_id, object, valid_from, valid_to)` — never by version id, since implicit effects make
versions no response names.

Each write's own effect is what it returned (its rows: state and interval); for a write whose outcome is unknown
and that the final state shows present, the rows are its versions read back (`Applied.rows`, built by the checker).
The model adds only the implicit effects Credo documents. Each rule below was confirmed on a real store
(`Store` on Neo4j 2026.08.1, probes of 2026-12-04 quoted in docs/history.md):

1. **Served states** are `active` and `reinforced` (DESIGN §6 "One definition says which states retrieval may serve";
   `services/core/lifecycle`). A version with no state in its row counts as `active`.
   Probe: an add returns `st=active` and is read back; a conflicting add returns `st=conflicted` and a read at a
   valid time inside it serves only the established value.
2. **Valid time is half-open** `[valid_from, valid_to)`; an undated version (no `valid_from`) is served, apart, while
   not ended before valid_at (DESIGN §2 "As-of reads"; README "Facts and time"). Probe: a succession at 2024-06-01
   serves the predecessor at 2024-03 and the successor at 2024-07.
3. **A conflicting add is kept `conflicted` and not served** (DESIGN §4; README "Conflicts"); it stays so when the
   established fact is retracted — only a resolve decides it. Probe: add a@2024-01, add c@2024-08 → c conflicted;
   retract a → a read at 2024-09 serves nothing.
4. **`succeed_fact(P, at)` bounds its predecessor at `at`**: P gets a new version ending at `at`; the response names
   only the successor (DESIGN §2 "Succession"; README `succeed_fact`). Probe: history of P shows the old version
   closed at the succession's known time and a new one `vt=2024-06-01`.
5. **`correct_fact` and `end_fact` replace the fact's current version** with the one they return (DESIGN §2
   "Correction"; README "No operation widens a claim"). Probe: end → `vt=at`, correct → new object, same interval.
6. **`retract_fact` takes the fact out** at its known time; its response is the closed version (DESIGN §2
   "Retraction"). Probe: the returned version has `kt` = the retraction's known time; no new version.
7. **`resolve_conflict`** returns the challenger's new version (`active`, or `rejected` for `reject`: not served);
   `succession` bounds the established value at `at`; `correction` replaces the established value only over the
   challenger's valid interval (the established fact keeps the parts before and after) (DESIGN §4; README
   "Conflicts", "A correction replaces the established value only over the challenger's valid interval").
   Probe: succession at 2024-08 → established `vt=2024-08-01`; correction [2024-08, 2024-10) → established split
   into [2024-01, 2024-08) and [2024-10, ∞); reject → challenger `st=rejected`, the established still served.
8. **`forget` takes a fact out of what is served** at its known time, and a read at an earlier known time shows the
   fact as a tombstone, not its content (DESIGN §7; README "Forgetting": "reads at an earlier known time show a
   tombstone"). Probe: after forget, a read now serves nothing; at the known time before it, one row with object
   `[forgotten]` and `.tombstone` set. The forgotten version is scrubbed in place (no new version).

Not modelled (the recorder does not issue them): the cascade (no `depends_on`), dedup (every object is a distinct
op id), range writes, `split_scope`, scopes. One single-valued predicate per subject is assumed when rule 7 looks
for the established value.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any

from bench.history.records import Row

SERVED_STATES = frozenset({"active", "reinforced"})
CHECKPOINT = 64  # versions per subject between two snapshots of what is alive
Served = tuple[str, str | None, datetime | None, datetime | None]
"""What a read is compared by: (fact_id, object, valid_from, valid_to)."""


def instant(value: Any) -> datetime | None:
    """A time as sent (datetime, ISO text, date) as an aware UTC datetime; None stays None."""
    if value is None or isinstance(value, datetime):
        return value if value is None or value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=timezone.utc)
    text = str(value).strip().replace("Z", "+00:00")
    if len(text) == 4:
        text += "-01-01"
    elif len(text) == 7:
        text += "-01"
    parsed = datetime.fromisoformat(text)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


@dataclass
class Applied:
    """One write as the model applies it: acknowledged, or unknown and decided present."""

    op_id: str
    tenant: str
    kind: str
    known: datetime
    args: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    fact_id: str | None = None  # the fact it acts on when its args do not name it (a resolve's challenger)


@dataclass
class ModelVersion:
    """One version the model believes, with its known interval and the write that made it."""

    fact_id: str
    object: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    state: str
    known_from: datetime
    known_to: datetime | None
    op_id: str

    def served_at(self, valid_at: datetime, known_at: datetime) -> bool:
        """Believed at known_at, in a served state, valid at valid_at (rules 1 and 2)."""
        return (self.known_from <= known_at and (self.known_to is None or known_at < self.known_to)
                and self.state in SERVED_STATES
                and (self.valid_from is None or self.valid_from <= valid_at)
                and (self.valid_to is None or valid_at < self.valid_to))

    def served(self) -> Served:
        """The comparison key."""
        return (self.fact_id, self.object, self.valid_from, self.valid_to)


class Model:
    """Per tenant and subject, the versions the history's writes make; apply in known-time order per tenant."""

    def __init__(self) -> None:
        self._by_subject: dict[tuple[str, str], list[ModelVersion]] = {}
        self._starts: dict[tuple[str, str], list[datetime]] = {}
        self._alive: dict[tuple[str, str], list[ModelVersion]] = {}
        self._subject_of: dict[tuple[str, str], str] = {}
        self._writers: dict[tuple[str, str], list[str]] = {}
        self._alive_in: dict[tuple[str, str], dict[int, ModelVersion]] = {}
        self._checkpoints: dict[tuple[str, str], list[list[ModelVersion]]] = {}
        self.forgotten: dict[tuple[str, str], tuple[datetime, str]] = {}

    # -- reading ---------------------------------------------------------------------------------------------
    def expected(self, tenant: str, subject: str, valid_at: Any, known_at: Any) -> set[Served]:
        """What the read should serve: the versions served at (valid_at, known_at)."""
        va, ka = instant(valid_at), instant(known_at)
        key = (tenant, subject)
        versions = self._by_subject.get(key, [])
        end = bisect_right(self._starts.get(key, []), ka)
        if not end:
            return set()
        # the versions alive at the last checkpoint at or before `end`, then those opened since: a read costs what
        # is alive, not the subject's whole history
        snapshot = self._checkpoints[key][(end - 1) // CHECKPOINT]
        since = (end - 1) // CHECKPOINT * CHECKPOINT
        return {v.served() for v in (*snapshot, *versions[since:end]) if v.served_at(va, ka)}

    def writers(self, tenant: str, fact_id: str) -> list[str]:
        """The ids of the writes that touched a fact, in known-time order."""
        return self._writers.get((tenant, fact_id), [])

    # -- writing ---------------------------------------------------------------------------------------------
    def apply(self, w: Applied) -> None:
        """Apply one write at its known time: its own rows, then the implicit effects of its kind."""
        fact = w.args.get("fact_id") or w.args.get("target_id") or w.fact_id
        if w.kind == "add":
            for row in w.rows:
                self._open(w, w.args.get("subject"), row.fact_id, row.object, row.valid_from, row.valid_to, row.state)
        elif w.kind == "succeed":  # rule 4
            at = instant(w.args.get("at"))
            subject = self._subject_of.get((w.tenant, fact))
            for old in self._close(w, fact):
                bound = old.valid_to if old.valid_to is not None and (at is None or old.valid_to <= at) else at
                self._open(w, subject, fact, old.object, old.valid_from, bound, old.state)
            for row in w.rows:
                self._open(w, subject or w.args.get("subject"), row.fact_id, row.object, row.valid_from,
                           row.valid_to, row.state)
        elif w.kind in ("correct", "end"):  # rule 5
            self._replace(w, fact, w.rows)
        elif w.kind == "retract":  # rule 6
            self._close(w, fact)
        elif w.kind == "forget":  # rule 8
            self._close(w, fact)
            self.forgotten[(w.tenant, fact)] = (w.known, w.op_id)
        elif w.kind == "resolve":  # rule 7
            challenger = w.rows[0].fact_id if w.rows else w.fact_id
            self._replace(w, challenger, [r for r in w.rows if r.fact_id == challenger])
            self._resolve_established(w, challenger)

    def _replace(self, w: Applied, fact: str | None, rows: list[Row]) -> None:
        subject = self._subject_of.get((w.tenant, fact)) or w.args.get("subject")
        old = self._close(w, fact)
        for row in rows:
            obj = row.object if row.object is not None else (old[0].object if old else None)
            self._open(w, subject, row.fact_id, obj, row.valid_from, row.valid_to, row.state)

    def _resolve_established(self, w: Applied, challenger: str | None) -> None:
        decision = w.args.get("decision")
        mine = [v for v in self._alive.get((w.tenant, challenger), []) if v.state in SERVED_STATES]
        if decision not in ("succession", "correction") or not mine:
            return
        subject = self._subject_of.get((w.tenant, challenger))
        lo = instant(w.args.get("at")) if decision == "succession" and w.args.get("at") else mine[0].valid_from
        hi = None if decision == "succession" else mine[0].valid_to
        others = {v.fact_id for v in self._by_subject.get((w.tenant, subject), [])
                  if v.known_to is None and v.fact_id != challenger and v.state in SERVED_STATES}
        for other in sorted(others):
            alive = self._alive.get((w.tenant, other), [])
            if not any(_overlaps(v, lo, hi) for v in alive):
                continue
            for old in self._close(w, other):
                if not _overlaps(old, lo, hi):
                    self._open(w, subject, other, old.object, old.valid_from, old.valid_to, old.state)
                    continue
                if lo is not None and (old.valid_from is None or old.valid_from < lo):
                    self._open(w, subject, other, old.object, old.valid_from, lo, old.state)
                if hi is not None and (old.valid_to is None or hi < old.valid_to):
                    self._open(w, subject, other, old.object, hi, old.valid_to, old.state)

    def _close(self, w: Applied, fact: str | None) -> list[ModelVersion]:
        old = self._alive.pop((w.tenant, fact), []) if fact else []
        for v in old:
            v.known_to = w.known
            self._alive_in.get((w.tenant, self._subject_of.get((w.tenant, fact), "")), {}).pop(id(v), None)
        if fact:
            self._touch(w, fact)
        return old

    def _open(self, w: Applied, subject: str | None, fact: str, obj: str | None, vf: datetime | None,
              vt: datetime | None, state: str | None) -> None:
        subject = subject or self._subject_of.get((w.tenant, fact)) or ""
        self._subject_of.setdefault((w.tenant, fact), subject)
        v = ModelVersion(fact, obj, instant(vf), instant(vt), state or "active", w.known, None, w.op_id)
        key = (w.tenant, subject)
        versions = self._by_subject.setdefault(key, [])
        alive = self._alive_in.setdefault(key, {})
        if len(versions) % CHECKPOINT == 0:
            self._checkpoints.setdefault(key, []).append(list(alive.values()))
        versions.append(v)
        alive[id(v)] = v
        self._starts.setdefault(key, []).append(w.known)
        self._alive.setdefault((w.tenant, fact), []).append(v)
        self._touch(w, fact)

    def _touch(self, w: Applied, fact: str) -> None:
        seen = self._writers.setdefault((w.tenant, fact), [])
        if not seen or seen[-1] != w.op_id:
            seen.append(w.op_id)


def _overlaps(v: ModelVersion, lo: datetime | None, hi: datetime | None) -> bool:
    """Whether a version's valid interval meets [lo, hi) (None: unbounded)."""
    starts_before_hi = hi is None or v.valid_from is None or v.valid_from < hi
    ends_after_lo = lo is None or v.valid_to is None or lo < v.valid_to
    return starts_before_hi and ends_after_lo
