"""The rule verifier (the scripted verifier of issue 27's acceptance) on a table of cases, English and Chinese:
each over-reach kind flagged, supported ones supported, unsupported ones unsupported."""

from __future__ import annotations

import pytest

from credo.schema.verify import Excerpt
from credo.services.verify.rules import RuleVerifier

CASES = [
    # (statement, quote, verdict, overreach kind)
    # hedge dropped
    ("The deploy fails on Fridays", "maybe the deploy fails on Fridays", "overreach", "hedge_dropped"),
    ("Bob owns the billing service", "I think Bob owns the billing service", "overreach", "hedge_dropped"),
    ("部署在周五会失败", "部署可能在周五会失败", "overreach", "hedge_dropped"),
    ("张三负责支付服务", "我猜张三负责支付服务", "overreach", "hedge_dropped"),
    # once → always
    ("Always skip the integration tests", "skip the integration tests this time", "overreach", "once_to_always"),
    ("Never run the linter before pushing", "today don't run the linter before pushing", "overreach",
     "once_to_always"),
    ("每次都跳过集成测试", "这次跳过集成测试", "overreach", "once_to_always"),
    ("永远用主分支发布", "今天用主分支发布", "overreach", "once_to_always"),
    # scope widened
    ("Use Postgres 16 for every service", "use Postgres 16 for the billing service", "overreach", "scope_widened"),
    ("Deploys need two approvals", "in this repo deploys need two approvals", "overreach", "scope_widened"),
    ("所有项目都用 Python 3.12", "这个项目用 Python 3.12", "overreach", "scope_widened"),
    ("任何服务都不能直接连数据库", "支付服务不能直接连数据库", "overreach", "scope_widened"),
    # condition dropped
    ("Never migrate the orders table", "don't migrate the orders table while API v1 reads it", "overreach",
     "condition_dropped"),
    ("Do not restart the cache", "do not restart the cache unless the queue is empty", "overreach",
     "condition_dropped"),
    ("不要迁移订单表", "在 API v1 下线之前不要迁移订单表", "overreach", "condition_dropped"),
    ("不要重启缓存", "除非队列是空的，不要重启缓存", "overreach", "condition_dropped"),
    # supported: the statement keeps what the source says
    ("Alice prefers tea", "I prefer tea, Alice here", "supported", None),
    ("The deploy may fail on Fridays", "maybe the deploy fails on Fridays", "supported", None),
    ("Don't migrate the orders table while API v1 reads it", "don't migrate the orders table while API v1 reads it",
     "supported", None),
    ("Skip the integration tests this time", "skip the integration tests this time", "supported", None),
    ("Deploys in this repo need two approvals", "in this repo deploys need two approvals", "supported", None),
    ("张三负责支付服务", "张三负责支付服务", "supported", None),
    ("部署可能在周五失败", "部署可能在周五会失败", "supported", None),
    # unsupported: nothing in the excerpt says it
    ("The database runs on Oracle", "we had lunch at noon", "unsupported", None),
    ("Carol leads the platform team", "the coffee machine is broken again", "unsupported", None),
    ("生产库用的是 Oracle", "我们中午去吃饭了", "unsupported", None),
]


@pytest.mark.parametrize(("statement", "quote", "verdict", "kind"), CASES, ids=[c[0][:40] for c in CASES])
def test_the_rule_verifier_judges_each_case_of_the_table(statement, quote, verdict, kind):
    answer = RuleVerifier().verify(statement, Excerpt(quote=quote, text=quote))
    assert (answer.verdict, answer.overreach_kind) == (verdict, kind), answer.reason
    assert answer.reason


def test_every_overreach_kind_is_in_the_table_in_english_and_chinese():
    kinds = {(k, any(ord(ch) > 0x3000 for ch in s)) for s, _q, v, k in CASES if v == "overreach"}
    assert kinds == {(k, zh) for k in ("hedge_dropped", "once_to_always", "scope_widened", "condition_dropped")
                     for zh in (False, True)}


def test_a_condition_only_in_the_message_around_the_quote_still_counts():
    excerpt = Excerpt(quote="don't migrate the orders table", text="while API v1 reads it, don't migrate the orders table")
    assert RuleVerifier().verify("Never migrate the orders table", excerpt).overreach_kind == "condition_dropped"


def test_no_excerpt_is_unsupported():
    assert RuleVerifier().verify("Bob owns billing", Excerpt()).verdict == "unsupported"
