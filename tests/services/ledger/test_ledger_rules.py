"""The chain check as a pure rule, table-driven: each kind of tampering is named at the right position."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from credo.schema.ledger import commitments, event_hash
from credo.services.ledger.rules import check_chain, unchained_problems

T0 = datetime(2025, 1, 1, tzinfo=timezone.utc)


def chain(n: int) -> list[dict]:
    rows, prev = [], ""
    for seq in range(1, n + 1):
        row = {"event_id": f"a_{seq}", "tenant": "t", "seq": seq, "at": T0 + timedelta(seconds=seq),
               "action": "add_facts", "subject_id": f"f_{seq}", "ids": [f"f_{seq}"], "actor": "system",
               "reason": None, "detail": "{}", "prev_hash": prev}
        row["hash"] = prev = event_hash({**row, "operation": row["action"]})
        rows.append(row)
    return rows


def changed(rows):
    rows[1]["detail"] = '{"x":1}'
    return rows


def rehashed(rows):  # changed and re-hashed by someone who knows the rule: the next link breaks
    rows[1]["reason"] = "forged"
    rows[1]["hash"] = event_hash({**rows[1], "operation": rows[1]["action"]})
    return rows


def removed_middle(rows):
    return [r for r in rows if r["seq"] != 2]


def removed_first(rows):
    return rows[1:]


def removed_last(rows):
    return rows[:-1]


def duplicated(rows):
    return rows + [dict(rows[1], event_id="a_x", hash="0" * 64)]


def beyond_head(rows):
    return rows + [dict(rows[2], event_id="a_y", seq=4)]


@pytest.mark.parametrize("tamper, expected", [
    (lambda rows: rows, []),
    (changed, [("changed", "a_2", 2)]),
    (rehashed, [("changed", "a_2", 2)]),
    (removed_middle, [("removed", "a_3", 2)]),
    (removed_first, [("removed", "a_2", 1)]),
    (removed_last, [("removed", None, 3)]),
    (duplicated, [("inserted", "a_x", 2)]),
    (beyond_head, [("inserted", "a_y", 4)]),
])
def test_the_chain_check_names_each_kind_of_tampering(tamper, expected):
    rows = chain(3)
    head = rows[-1]["hash"]
    found = check_chain(tamper([dict(r) for r in rows]), head_seq=3, head_hash=head)
    assert [(p.kind, p.event_id, p.seq) for p in found] == expected


def test_an_empty_ledger_holds():
    assert check_chain([], head_seq=0, head_hash="") == []


@pytest.mark.parametrize("row, legacy, inserted", [
    ({"event_id": "a_old", "at": T0 - timedelta(days=1)}, 1, []),               # written before the chain began
    ({"event_id": "a_new", "at": T0 + timedelta(days=1)}, 0, ["a_new"]),        # dated after it began: inserted
    ({"event_id": "a_fake", "at": T0 - timedelta(days=1), "hash": "ab"}, 0, ["a_fake"]),  # claims a hash, no seq
])
def test_events_without_a_seq_are_legacy_only_before_the_chain_began(row, legacy, inserted):
    count, problems = unchained_problems([row], T0)
    assert count == legacy and [p.event_id for p in problems] == inserted


# free text (reason, detail, the claimed actor) is chained through a salted commitment, so forgetting can redact it
# (the value and its salt go, the digest stays) without breaking the chain, while any other change still breaks it
def committed_chain(n: int) -> list[dict]:
    rows, prev = [], ""
    for seq in range(1, n + 1):
        row = {"event_id": f"a_{seq}", "tenant": "t", "seq": seq, "at": T0 + timedelta(seconds=seq),
               "action": "retract_fact", "subject_id": f"f_{seq}", "ids": [f"f_{seq}"], "actor": "key:k1",
               "on_behalf_of": "Nurse Ward Nine", "reason": "Lambda Erasename transferred", "detail": '{"v":1}',
               "prev_hash": prev}
        row.update(commitments(row))
        row["hash"] = prev = event_hash({**row, "operation": row["action"]})
        rows.append(row)
    return rows


def redacted(rows):  # what forgetting does: the value and its salt go, the digest stays
    for name in ("reason", "detail", "on_behalf_of"):
        rows[1][name] = None
        rows[1][f"{name}_commit"] = ":" + rows[1][f"{name}_commit"].partition(":")[2]
    return rows


def reason_changed(rows):
    rows[1]["reason"] = "someone else transferred"
    return rows


def removed_without_redaction(rows):  # the value deleted, its salt kept: not how forgetting redacts
    rows[1]["reason"] = None
    return rows


def digest_changed(rows):
    salt, _, _digest = rows[1]["reason_commit"].partition(":")
    rows[1]["reason_commit"] = f"{salt}:{'0' * 64}"
    return rows


def commitment_dropped(rows):  # pretending the event was written before commitments: its hash no longer holds
    rows[1].pop("reason_commit")
    return rows


@pytest.mark.parametrize("tamper, expected", [
    (lambda rows: rows, []),
    (redacted, []),
    (reason_changed, [("changed", "a_2", 2)]),
    (removed_without_redaction, [("changed", "a_2", 2)]),
    (digest_changed, [("changed", "a_2", 2)]),
    (commitment_dropped, [("changed", "a_2", 2)]),
], ids=["untouched", "redacted by forget", "reason changed", "removed, salt kept", "digest changed",
        "commitment dropped"])
def test_a_redacted_free_text_field_keeps_the_chain_and_any_other_change_breaks_it(tamper, expected):
    rows = committed_chain(3)
    found = check_chain(tamper([dict(r) for r in rows]), head_seq=3, head_hash=rows[-1]["hash"])
    assert [(p.kind, p.event_id, p.seq) for p in found] == expected


def test_a_commitment_does_not_reveal_the_text_and_two_of_the_same_text_differ():
    first, second = commitments({"reason": "Lambda Erasename transferred"}), commitments(
        {"reason": "Lambda Erasename transferred"})
    assert "Erasename" not in first["reason_commit"] and first["reason_commit"] != second["reason_commit"]
    assert commitments({"reason": None}) == {}
