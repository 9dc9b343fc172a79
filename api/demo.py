"""The guided demo: replays a small company's 2024 into a fresh tenant and asks it the questions that matter.

Known time is normally the commit time. To show "as we knew it on 2024-04-01", the demo replays its
timeline with a simulated store clock (the private test hook), so each write is known from the day the
story says it happened. Everything else is the public API on a real Neo4j.
"""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone

from credo.api.render import fact_line
from credo.schema.time import parse_instant
from credo.settings import Settings


class ReplayClock:
    """A clock the demo moves along its story; each read advances one millisecond."""

    def __init__(self) -> None:
        self.now = datetime(2024, 1, 1, tzinfo=timezone.utc)

    def on(self, day: str) -> datetime:
        """Move the story to `day` (YYYY-MM-DD)."""
        self.now = parse_instant(day, "day") + timedelta(hours=9)
        return self.now

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


def _say(text: str = "") -> None:
    print(text, flush=True)


def _message(index: int, origin: str, author: str, text: str, day: str) -> dict:
    role = "assistant" if origin == "agent" else "user"
    return {"index": index, "role": role, "origin": origin, "author": author, "text": text,
            "at": parse_instant(day, "at") + timedelta(hours=9, minutes=index)}


def run_demo(settings: Settings) -> int:
    """Write and read the demo story in a fresh tenant; returns an exit code."""
    from credo.bootstrap import open_database, open_store
    from credo.schema.api_keys import Principal
    from credo.services.adapters.summarizers import ListSummarizer

    db = open_database(settings, progress=lambda m: print(m, file=sys.stderr))
    tenant = f"demo-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}"
    clock = ReplayClock()
    store = open_store(settings, db, principal=Principal.local(tenant), embedder=None, clock=clock)
    try:
        _story(store, clock, ListSummarizer())
    finally:
        store.close()
    _say(f"\nExplore it yourself (tenant {tenant}):")
    _say(f"  credo --tenant {tenant} who 'Acme account' --at 2024-03-01 --known-at 2024-04-01")
    _say(f"  credo --tenant {tenant} stale")
    return 0


def _notes(text: str) -> None:
    """A summary under its own heading (its first line), its notes indented beneath."""
    heading, *lines = text.splitlines() or [""]
    _say("   " + heading + "".join("\n     " + line for line in lines))


def _consented(store, session: str, index: int, person: str, remembered):
    """A surfaced write (DESIGN §9): the assistant shows the line, the person says yes, the answer is relayed."""
    _say(f"   assistant: “{remembered.surface}” — {person}: “Yes.”")
    day = f"{remembered.known_from:%Y-%m-%d}"
    _shown, yes = store.ingest_messages(session, [_message(index, "agent", "assistant", remembered.surface, day),
                                                  _message(index + 1, "human_input", person, "Yes.", day)])
    return store.consent(remembered.fact_id, "accept", message_id=yes.source_id).fact


def _story(store, clock: ReplayClock, summarizer) -> None:
    _say(f"Credo demo — a Neo4j-backed store, tenant {store.tenant}")
    store.define_predicate("owned_by", cardinality="single", inverse="owns")
    store.define_predicate("member_of", cardinality="multi", inverse="has_member")

    _say("\n── 2024-01-05  Maria (sales ops) tells the assistant who owns the account")
    clock.on("2024-01-05")
    store.ingest_messages("crm-chat", [
        _message(0, "agent", "assistant", "Who should I list as owner of the Acme account?", "2024-01-05"),
        _message(1, "human_input", "maria", "Alice owns the Acme account since January 1st.", "2024-01-05"),
    ])
    alice = store.turn("crm-chat").remember(
        "Alice owns the Acme account", "The Acme account is owned by Alice", subject="Acme account",
        predicate="owned_by", object="Alice", valid_from="2024-01-01")
    alice = _consented(store, "crm-chat", 2, "maria", alice)
    _say("   " + fact_line(alice))

    _say("\n── 2024-02-20  a CRM sync claims Bob owns it from 2024-02-15: kept as a conflict, not applied")
    clock.on("2024-02-20")
    bob = store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-02-15")
    _say(f"   the new write is {bob.state}; Alice stays served and is shown as disputed")

    _say("\n── 2024-04-10  Maria confirms a hand-over on 2024-03-15; the conflict is resolved as a succession")
    clock.on("2024-04-10")
    [conflict] = store.conflicts()
    store.resolve_conflict(conflict.conflict_id, decision="succession", at="2024-03-15",
                           reason="Maria: hand-over on March 15")

    _say("\nWho owned the Acme account …")
    for valid, known in [("2024-03-01", "2024-04-01"), ("2024-03-20", "2024-04-01"), ("2024-03-20", None)]:
        found = store.facts("Acme account", "owned_by", valid_at=valid, known_at=known)
        names = ", ".join(f"{f.value}{' (disputed)' if f.disputed else ''}" for f in found) or "nobody"
        _say(f"   on {valid}, as we knew it {'on ' + known if known else 'now':<14} → {names}")
    why = store.why(alice.fact_id, known_at="2024-04-01")
    source = why.sources[0]
    _say(f"   … and on whose word? {source.author} ({source.origin}) in session {source.session_id}, message "
         f"#{source.index} at {source.at:%Y-%m-%d %H:%M}: “{source.quote}”")

    _say("\n── 2024-05-02  a DBA guesses; a dependency check confirms; a rule and the deployment notes rest on it")
    clock.on("2024-05-02")
    store.ingest_messages("db-chat", [
        _message(0, "agent", "assistant", "Can we drop customer_legacy?", "2024-05-02"),
        _message(1, "human_input", "raj", "I guess API v1 still reads customer_legacy, not confirmed yet.", "2024-05-02"),
    ])
    guess = store.turn("db-chat").remember("I guess API v1 still reads customer_legacy, not confirmed yet",
                                           "API v1 reads customer_legacy", subject="API v1", predicate="reads",
                                           object="customer_legacy", valid_from="2024-05-02")
    guess = _consented(store, "db-chat", 2, "raj", guess)
    _say(f"   Raj's guess is stored as a {guess.epistemic} (never served as confirmed)")
    clock.on("2024-05-03")
    check = store.add_source("tool_result", "grep api-v1: orders.py:42 SELECT * FROM customer_legacy",
                             title="dependency check")
    premise = store.reverify(guess.fact_id, outcome="holds", evidence=check.source_id,
                             note="dependency check found a v1 caller")
    _say(f"   a dependency check (tool result {check.source_id}) confirms it: now {premise.epistemic}")
    rule = store.add_fact("customer_legacy", "must_not", "be dropped in production", scope={"env": "production"},
                          valid_from="2024-05-03", statement="Don't drop customer_legacy in production",
                          depends_on=[premise.fact_id])
    backups = store.add_fact("backups", "run", "nightly at 02:00", valid_from="2024-01-01",
                             statement="Backups run nightly at 02:00")
    freeze = store.add_fact("deploys", "frozen_on", "Fridays", valid_from="2024-01-01",
                            statement="No deploys on Fridays")
    notes = store.add_summary("deployment notes", derived_from=[rule.fact_id, backups.fact_id, freeze.fact_id],
                              summarizer=summarizer)
    _notes(notes.text)

    _say("\n── 2024-09-02  all API v1 clients are retired: the premise ends on 2024-09-01")
    clock.on("2024-09-02")
    ended = store.end_fact(premise.fact_id, at="2024-09-01")
    report = ended.cascade
    _say("   the same write's cascade report:")
    for flagged in report.facts if report else []:
        _say(f"     stale rule   {flagged.statement!r} — {flagged.cause.text()} (path {' → '.join(flagged.path)})")
    for flagged in report.summaries if report else []:
        _say(f"     stale summary {flagged.topic!r} — {flagged.reason}")
    _say(f"   served rules now: {[f.statement for f in store.facts('customer_legacy', 'must_not')] or 'none'}")

    _say("\n── 2024-09-03  the rule is re-verified as lapsed, the notes are rebuilt")
    clock.on("2024-09-03")
    store.reverify(rule.fact_id, outcome="lapsed", note="API v1 clients were retired on 2024-09-01")
    rebuilt = store.rebuild(notes.summary_id, summarizer=summarizer)
    _notes(rebuilt.text)
    before = store.summary(notes.summary_id, known_at="2024-08-01")
    _say(f"   as of 2024-08-01 the notes still read as they did then ({len(before.text.splitlines()) - 1} rules)")
