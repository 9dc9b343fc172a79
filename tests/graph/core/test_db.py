"""The driver layer: routing URIs work unchanged, reads route as reads, errors arrive translated."""

from __future__ import annotations

import pytest

from credo.graph.core.db import Database
from credo.schema.errors import DatabaseUnavailable
from credo.store import Store


def test_a_neo4j_routing_uri_works_unchanged_for_reads_and_writes(neo4j_info, tenant):
    routed = neo4j_info.uri.replace("bolt://", "neo4j://")
    db = Database(routed, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    try:
        store = Store(db, tenant=tenant, embedder=None, _owns_db=False)
        fact = store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
        assert [f.fact_id for f in store.facts("Acme account", "owned_by", valid_at="2024-02-01")] == [fact.fact_id]
    finally:
        db.close()


def test_wrong_credentials_are_a_database_unavailable_error_naming_the_cause(neo4j_info):
    db = Database(neo4j_info.uri, neo4j_info.user, "not-the-password", neo4j_info.database, timeout_s=5)
    try:
        with pytest.raises(DatabaseUnavailable) as err:
            db.verify()
        assert "authentication failed" in err.value.reason
    finally:
        db.close()


def test_reads_one_after_another_reuse_one_session_and_see_every_committed_write(neo4j_info, tenant, monkeypatch):
    # given a database handle and a stored fact
    db = Database(neo4j_info.uri, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    try:
        opened = []
        real = db._driver.session
        monkeypatch.setattr(db._driver, "session", lambda **kw: opened.append(kw) or real(**kw))
        store = Store(db, tenant=tenant, embedder=None, _owns_db=False)
        store.define_predicate("owned_by", cardinality="multi")
        store.add_fact("Acme account", "owned_by", "Alice", valid_from="2024-01-01")
        # when five reads run one after another, with a write between them
        for n in range(5):
            assert len(store.facts("Acme account", "owned_by", valid_at="2024-02-01")) == 1 + (n >= 3)
            if n == 2:
                store.add_fact("Acme account", "owned_by", "Bob", valid_from="2024-01-01")
        # then every read (the writes' own included) borrowed one session (each write opened its own), and each saw what was committed
        assert sum(1 for kw in opened if kw.get("default_access_mode") == "READ") == 1
    finally:
        db.close()


def test_a_query_reaches_the_server_without_its_comment_lines_and_keeps_its_header_in_the_file(neo4j_info):
    # given a query file's text: a // header (what it does, its parameters, what it returns) above the body
    from credo.cypher import Query, load

    header = "// the server's own view of the running query\n// $marker  a value the body returns\n// returns: sent\n"
    seen = Query("test_sent_text", header + "SHOW TRANSACTIONS YIELD currentQuery\n"
                 "  // an indented comment line inside the body\n"
                 "WHERE currentQuery CONTAINS 'SHOW TRANSACTIONS' RETURN currentQuery AS sent, $marker AS marker",
                 frozenset({"marker"}))
    db = Database(neo4j_info.uri, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    try:
        # when it runs
        [row] = db.query(seen, marker="m")
    finally:
        db.close()
    # then the server parsed the body alone (the comments are for readers of the file, not bytes on every call) ...
    assert "//" not in row["sent"] and row["sent"].startswith("SHOW TRANSACTIONS") and row["marker"] == "m"
    # ... while the file's text keeps its header for the hygiene checks
    assert load("read_facts_by_subject_name").text.startswith("//")
    assert not any(line.lstrip().startswith("//") for line in load("read_facts_by_subject_name").body.splitlines())


def test_a_querys_long_list_parameters_are_sent_whole_but_never_formatted_for_the_drivers_debug_log(
        neo4j_info, monkeypatch):
    # the driver formats `repr()` of every parameter for its debug line on each run(), logging enabled or not: for a
    # 1,000-row write that was 10.7 ms of client time per statement (bench/history/journal.md)
    from neo4j._sync.io import _bolt5

    from credo.cypher import Query

    lines: list[str] = []
    real = _bolt5.log.debug
    monkeypatch.setattr(_bolt5.log, "debug", lambda msg, *args: (lines.append(msg % args), real(msg, *args)))
    rows = [{"n": i, "text": f"row {i} " * 10} for i in range(1000)]
    total = Query("test_sum_rows", "// the sum of the rows' n\n// $rows  rows\n// $tag  a short value\n"
                  "// returns: total, count, tag\nUNWIND $rows AS row RETURN sum(row.n) AS total, count(*) AS count, "
                  "$tag AS tag", frozenset({"rows", "tag"}))
    db = Database(neo4j_info.uri, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    try:
        [row] = db.query(total, rows=rows, tag="t")
    finally:
        db.close()
    # the server got every row and the short value
    assert row == {"total": sum(range(1000)), "count": 1000, "tag": "t"}
    # and the driver's RUN line names the list by its length instead of spelling out its 1,000 rows
    (run,) = [line for line in lines if "C: RUN" in line and "test_sum_rows" not in line and "$rows" in line]
    assert len(run) < 2_000 and "row 999" not in run and "'t'" in run


def test_a_batched_label_statement_that_loses_a_race_runs_again_instead_of_failing_its_caller(
        neo4j_info, tenant, monkeypatch):
    # a search partition build labels a tenant's versions in batched transactions beside the tenant's writes; a
    # deadlock Neo4j resolves by aborting the build's batch (a transient error) made the whole build fail, logged and
    # left for maintain() (seen in bench_cascade)
    from neo4j.exceptions import Neo4jError

    from credo.cypher import Query

    db = Database(neo4j_info.uri, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    make = Query("test_make", "// $tenant  t\n// returns: n\nUNWIND range(1, 3) AS i CREATE (n:TestRaced "
                 "{tenant: $tenant, i: i}) RETURN count(n) AS n", frozenset({"tenant"}))
    label = Query("test_label_batched", "// $tenant  t\n// returns: n\nMATCH (n:TestRaced) WHERE n.tenant = $tenant "
                  "CALL (n) { SET n:TestLabelled } IN TRANSACTIONS OF 2 ROWS RETURN count(n) AS n",
                  frozenset({"tenant"}))
    count = Query("test_count", "// $tenant  t\n// returns: n\nMATCH (n:TestLabelled) WHERE n.tenant = $tenant "
                  "RETURN count(n) AS n", frozenset({"tenant"}))
    try:
        db.query(make, write=True, tenant=tenant)
        real_session = db._driver.session
        deadlocks = [Neo4jError._hydrate_neo4j(code="Neo.TransientError.Transaction.DeadlockDetected",
                                                message="ForsetiClient can't acquire UpdateLock: deadlock")]

        def session(*args, **kwargs):
            opened = real_session(*args, **kwargs)
            real_run = opened.run

            def run(text, *rest, **more):
                if deadlocks and "TestLabelled" in str(text):
                    raise deadlocks.pop()
                return real_run(text, *rest, **more)

            opened.run = run
            return opened

        monkeypatch.setattr(db._driver, "session", session)
        # when the batched statement's first attempt is aborted by a deadlock
        db.run_schema_query(label, tenant=tenant)
        # then it ran again and labelled every node
        assert deadlocks == []
        assert db.query(count, tenant=tenant)[0]["n"] == 3
    finally:
        monkeypatch.undo()
        db.query(Query("test_clean", "// $tenant  t\n// returns: n\nMATCH (n:TestRaced) WHERE n.tenant = $tenant "
                       "DETACH DELETE n RETURN count(*) AS n", frozenset({"tenant"})), write=True, tenant=tenant)
        db.close()


def test_schema_statements_that_say_if_not_exists_succeed_when_another_session_makes_the_same_index_meanwhile(
        neo4j_info):
    # CI failed when a tenant finding no free search slot made slots while the background refill made the same ones:
    # Neo4j checks IF NOT EXISTS before it locks the schema, so the second of two concurrent CREATE ... IF NOT EXISTS
    # of one index failed with EquivalentSchemaRuleAlreadyExists although the index it asked for exists
    import threading
    import uuid

    db = Database(neo4j_info.uri, neo4j_info.user, neo4j_info.password, neo4j_info.database, timeout_s=10)
    names = [f"test_race_{uuid.uuid4().hex[:12]}" for _ in range(6)]
    errors: list[Exception] = []
    try:
        for name in names:
            start = threading.Barrier(4)

            def create(name=name, start=start):
                start.wait()
                try:
                    db.run_schema(f"CREATE FULLTEXT INDEX {name} IF NOT EXISTS FOR (n:L_{name}) ON EACH [n.x]")
                except Exception as exc:  # noqa: BLE001 - collected for the assertion
                    errors.append(exc)

            threads = [threading.Thread(target=create) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        # then every statement succeeded and each index exists once
        assert errors == []
        made, _, _ = db._driver.execute_query("SHOW INDEXES YIELD name RETURN collect(name) AS names",
                                              database_=neo4j_info.database)
        assert set(names) <= set(made[0]["names"])
    finally:
        for name in names:
            db.run_schema(f"DROP INDEX {name} IF EXISTS")
        db.close()
